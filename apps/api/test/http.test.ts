import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCustomers } from '../src/seed/customers.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** A raw HTTP/1.1 exchange: fetch cannot send what a browser never would (a 20 KB request line). */
function rawRequest(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

/** A GET that leaves the answer's bytes as sent (fetch would decode them). */
function getBytes(baseUrl: string, url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    http
      .get(baseUrl + url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe.each(engines)('HTTP edges (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('ADMIN');
  });
  afterAll(() => t?.close());

  it('a path parameter past the router limit answers 414 in Spanish without echoing the URL', async () => {
    const long = 'x'.repeat(3000);
    const res = await t.call('GET', `/api/customers/${long}`, { token: admin });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ error: 'La dirección de la solicitud es demasiado larga.', code: 'URI_TOO_LONG' });
    expect(res.body).not.toContain('xxxx');
  });

  it('a malformed URL answers 400 in Spanish without echoing it', async () => {
    const res = await t.call('GET', '/api/customers/%E0%A4%A', { token: admin });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'La dirección de la solicitud no es válida.', code: 'BAD_URL' });
  });

  it('a URL over 16 KB answers 431 in Spanish', async () => {
    const raw = await rawRequest(t.baseUrl, `GET /api/health?q=${'y'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(raw)).toEqual({ error: 'La solicitud es demasiado grande (dirección o encabezados).', code: 'HEADERS_TOO_LARGE' });
    expect(raw).not.toContain('yyyy');
  });

  it('a request that is not HTTP answers 400 in Spanish', async () => {
    const raw = await rawRequest(t.baseUrl, 'HOLA MUNDO\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(raw)).toEqual({ error: 'La solicitud HTTP no es válida.', code: 'BAD_HTTP_REQUEST' });
  });
});

describe('transport security headers are sent only over https', () => {
  let direct: TestContext;
  let proxied: TestContext;
  beforeAll(async () => {
    direct = await startTestApp('embedded');
    proxied = await startTestApp('embedded', { config: { trustProxy: true } });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  const securityOf = (res: { headers: Headers }) => ({
    hsts: res.headers.get('strict-transport-security'),
    upgrade: /upgrade-insecure-requests/.test(res.headers.get('content-security-policy') ?? ''),
    csp: /default-src 'self'/.test(res.headers.get('content-security-policy') ?? ''),
  });

  it('plain http (a branch LAN install): no HSTS, no upgrade-insecure-requests, the rest of the CSP kept', async () => {
    expect(securityOf(await direct.call('GET', '/api/health'))).toEqual({ hsts: null, upgrade: false, csp: true });
    // Without TRUST_PROXY a client's X-Forwarded-Proto is not believed.
    const spoofed = await direct.call('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(securityOf(spoofed)).toEqual({ hsts: null, upgrade: false, csp: true });
  });

  it('behind a trusted https proxy: HSTS and upgrade-insecure-requests', async () => {
    const https = await proxied.call('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(securityOf(https)).toEqual({ hsts: 'max-age=31536000; includeSubDomains', upgrade: true, csp: true });
    const http = await proxied.call('GET', '/api/health', { headers: { 'x-forwarded-proto': 'http' } });
    expect(securityOf(http)).toEqual({ hsts: null, upgrade: false, csp: true });
  });

  it("scripts: our own only, and WebAssembly (the camera's barcode decoder) but no JavaScript eval", async () => {
    const csp = (await direct.call('GET', '/api/health')).headers.get('content-security-policy') ?? '';
    expect(/(?:^|;)script-src ([^;]*)/.exec(csp)?.[1]).toBe("'self' 'wasm-unsafe-eval'");
  });
});

describe('serving the built web app', () => {
  const SCRIPT = `console.log(${JSON.stringify('tramo '.repeat(400))});\n`;
  let t: TestContext;
  let webDist: string;
  beforeAll(async () => {
    // A build as `vite build` leaves it: the page, and content-hashed assets.
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>Tramo</title><script type="module" src="/assets/index-AbC123.js"></script>',
    );
    fs.writeFileSync(path.join(webDist, 'assets/index-AbC123.js'), SCRIPT);
    fs.writeFileSync(path.join(webDist, 'index.html.br'), zlib.brotliCompressSync(fs.readFileSync(path.join(webDist, 'index.html'))));
    // With the brotli and gzip copies the build makes beside each text asset.
    fs.writeFileSync(path.join(webDist, 'assets/index-AbC123.js.br'), zlib.brotliCompressSync(SCRIPT));
    fs.writeFileSync(path.join(webDist, 'assets/index-AbC123.js.gz'), zlib.gzipSync(SCRIPT));
    t = await startTestApp('embedded', { serveWeb: true, config: { webDist }, seed: async (db) => void (await seedCustomers(db)) });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('answers client routes with the app and existing assets with their file', async () => {
    const page = await t.call('GET', '/shipments/12');
    expect(page.statusCode).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const asset = await t.call('GET', '/assets/index-AbC123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe(SCRIPT);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset (a chunk of an older build) with 404, not the app', async () => {
    const gone = await t.call('GET', '/assets/ShipmentsPage-Old999.js');
    expect(gone.statusCode).toBe(404);
    expect(gone.headers.get('content-type')).not.toMatch(/text\/html/);
    expect(gone.headers.get('cache-control')).toBe('no-store');
    expect(gone.json()).toEqual({ error: 'Recurso no encontrado', code: 'NOT_FOUND' });
  });

  it('sends the brotli or gzip copy made at build time to a browser that accepts it', async () => {
    const url = '/assets/index-AbC123.js';
    const br = await getBytes(t.baseUrl, url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.bytes.equals(fs.readFileSync(path.join(webDist, 'assets/index-AbC123.js.br')))).toBe(true);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const gzip = await getBytes(t.baseUrl, url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.bytes.equals(fs.readFileSync(path.join(webDist, 'assets/index-AbC123.js.gz')))).toBe(true);
    const plain = await getBytes(t.baseUrl, url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.toString()).toBe(SCRIPT);
    // The page itself, whatever client route it is asked under.
    const page = await getBytes(t.baseUrl, '/shipments/12', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(page.bytes).toString()).toBe(fs.readFileSync(path.join(webDist, 'index.html'), 'utf8'));
  });

  it('compresses API answers over 1 KB, not the small ones', async () => {
    const token = await t.login('ADMIN');
    const headers = { 'accept-encoding': 'br, gzip', authorization: `Bearer ${token}` };
    const list = await getBytes(t.baseUrl, '/api/customers?pageSize=100', headers);
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const json = zlib.brotliDecompressSync(list.bytes).toString();
    expect(json.length).toBeGreaterThan(1024);
    expect(JSON.parse(json).items.length).toBeGreaterThan(10);
    const gzip = await getBytes(t.baseUrl, '/api/customers?pageSize=100', { ...headers, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.bytes).toString()).toBe(json);
    const small = await getBytes(t.baseUrl, '/api/health', headers);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString()).status).toBe('ok');
  });
});
