import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});

describe('serving the built web app', () => {
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
    fs.writeFileSync(path.join(webDist, 'assets/index-AbC123.js'), 'console.log("tramo");\n');
    t = await startTestApp('embedded', { serveWeb: true, config: { webDist } });
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
    expect(asset.body).toBe('console.log("tramo");\n');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset (a chunk of an older build) with 404, not the app', async () => {
    const gone = await t.call('GET', '/assets/ShipmentsPage-Old999.js');
    expect(gone.statusCode).toBe(404);
    expect(gone.headers.get('content-type')).not.toMatch(/text\/html/);
    expect(gone.headers.get('cache-control')).toBe('no-store');
    expect(gone.json()).toEqual({ error: 'Recurso no encontrado', code: 'NOT_FOUND' });
  });
});
