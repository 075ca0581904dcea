// The HTTP load of `bench writes`, in a worker thread: the clients' own work (undici, building and
// reading bodies) runs beside the server, as a real client's would, instead of taking turns with it
// on the server's event loop. node:http with kept-alive sockets rather than fetch, whose streams
// cost the shared cores about as much as the server's own work per request. Plain JS so the worker
// needs no TypeScript loader. Three kinds of write: a shipment creation (POST /api/shipments), a
// payment with its receipt (POST /api/payments/manual, one of the shipments given per request), a
// factura emitted (POST /api/billing/create-emit).
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, token, tokens = null, clients, seconds, kind = 'shipment', route, branchIds, toPay = [], emission = null } = workerData;

const routeOf = () => {
  if (route) return route;
  const o = branchIds[Math.floor(Math.random() * branchIds.length)];
  const others = branchIds.filter((id) => id !== o);
  return [o, others[Math.floor(Math.random() * others.length)]];
};

const shipmentBody = () => {
  const [origin, destination] = routeOf();
  return JSON.stringify({
    senderName: 'Comercial Andina SAC',
    recipientDoc: String(10_000_000 + Math.floor(Math.random() * 80_000_000)),
    recipientFirstName: 'María',
    recipientLastName: 'Flores Ccori',
    originBranchId: origin,
    destinationBranchId: destination,
    lines: [
      { productType: 'liviano', weightKg: 2.5 },
      { productType: 'medio', weightKg: 14 },
    ],
    secretCode: 'clave-7',
  });
};

let nextToPay = 0;
const paymentBody = () => {
  const shipment = toPay[nextToPay++];
  if (!shipment) return null;
  return JSON.stringify({
    shipmentId: shipment.id,
    customerName: 'María Flores Ccori',
    customerDocNumber: '45879612',
    amount: shipment.amount,
    currency: 'PEN',
    methodCode: 'cash',
  });
};

const target = {
  shipment: ['/api/shipments', shipmentBody],
  payment: ['/api/payments/manual', paymentBody],
  emission: ['/api/billing/create-emit', () => JSON.stringify(emission)],
}[kind];
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const url = new URL(target[0], base);

/** One POST by client `who`; resolves to whether the write was done (201), or null when there is nothing left to write. */
function post(who) {
  const payload = target[1]();
  if (payload === null) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'accept-encoding': 'br, gzip',
          // Each client its own cashier (and cash session) when given tokens, as at a counter of several.
          authorization: `Bearer ${tokens ? tokens[who % tokens.length] : token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 201));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const result = { done: 0, failed: 0, latencies: [], seconds };
const started = performance.now();
const end = started + seconds * 1000;
await Promise.all(
  Array.from({ length: clients }, async (_, who) => {
    while (performance.now() < end) {
      const t = performance.now();
      const ok = await post(who).catch(() => false);
      if (ok === null) break;
      result.latencies.push(performance.now() - t);
      if (ok) result.done++;
      else result.failed++;
    }
  }),
);
result.seconds = (performance.now() - started) / 1000;
agent.destroy();
parentPort.postMessage(result);
