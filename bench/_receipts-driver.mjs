// The HTTP load of `bench writes`' receipt cases, in a worker thread (as _http-driver.mjs does for
// creations): payments with their receipt (POST /api/payments/manual, each client a cashier of its
// own paying shipments of its own) and emissions on one series (POST /api/billing/create-emit).
// Plain JS so the worker needs no TypeScript loader.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, kind, tokens, shipments, amount, seconds, today } = workerData;
const clients = tokens.length;

const factura = () =>
  JSON.stringify({
    type: '01',
    serie: 'FFF1',
    issueDate: today,
    items: [
      { description: 'Servicio de transporte de carga TMT-000123 Lima → Arequipa', unit: 'ZZ', quantity: 1, unitValue: '254.24', igvType: '10' },
      { description: 'Embalaje', unit: 'NIU', quantity: 3, unitValue: '5.50', igvType: '10' },
    ],
    customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
  });
const payment = (shipmentId) =>
  JSON.stringify({ shipmentId, customerName: 'María Flores Ccori', customerDocNumber: '45879612', amount, currency: 'PEN', methodCode: 'cash' });

const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const url = new URL(kind === 'payments' ? '/api/payments/manual' : '/api/billing/create-emit', base);

/** One POST; resolves to whether it was taken whole (201: paid, or emitted and accepted). */
function post(token, payload) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 201 || res.statusCode === 200));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const result = { done: 0, failed: 0, latencies: [], ranOut: false };
const end = performance.now() + seconds * 1000;
await Promise.all(
  tokens.map(async (token, client) => {
    // Each cashier pays its own shipments (client, client + clients, …): no two ask for one.
    for (let i = client; performance.now() < end; i += clients) {
      if (kind === 'payments' && i >= shipments.length) {
        result.ranOut = true;
        break;
      }
      const t = performance.now();
      const ok = await post(token, kind === 'payments' ? payment(shipments[i]) : factura()).catch(() => false);
      result.latencies.push(performance.now() - t);
      if (ok) result.done++;
      else result.failed++;
    }
  }),
);
agent.destroy();
parentPort.postMessage(result);
