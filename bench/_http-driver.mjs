// The HTTP load of `bench writes`, in a worker thread: the clients' own work (undici, building and
// reading bodies) runs beside the server, as a real client's would, instead of taking turns with it
// on the server's event loop. node:http with kept-alive sockets rather than fetch, whose streams
// cost the shared cores about as much as the server's own work per request. Plain JS so the worker
// needs no TypeScript loader.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, token, clients, seconds, route, branchIds } = workerData;

const routeOf = () => {
  if (route) return route;
  const o = branchIds[Math.floor(Math.random() * branchIds.length)];
  const others = branchIds.filter((id) => id !== o);
  return [o, others[Math.floor(Math.random() * others.length)]];
};

const body = (origin, destination) =>
  JSON.stringify({
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

const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const url = new URL('/api/shipments', base);

/** One POST; resolves to whether the shipment was created (201). */
function create() {
  const [o, d] = routeOf();
  const payload = body(o, d);
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
          authorization: `Bearer ${token}`,
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

const result = { done: 0, failed: 0, latencies: [] };
const end = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const ok = await create().catch(() => false);
      result.latencies.push(performance.now() - t);
      if (ok) result.done++;
      else result.failed++;
    }
  }),
);
agent.destroy();
parentPort.postMessage(result);
