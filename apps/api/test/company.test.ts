import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { COMPANY_MESSAGES, CUSTOMER_MESSAGES } from '@tramo/domain';
import { engines, startTestApp, type TestContext } from './harness.ts';
import { PHOTO_JPEG, SIGNATURE_PNG } from './support/proof-images.ts';

/** Issue 36, item 1: the company's data ('Empresa'), one audited record an admin edits. */
describe.each(engines)('company settings (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;

  beforeAll(async () => {
    t = await startTestApp(engine);
    [admin, agent] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
  });
  afterAll(() => t?.close());

  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
  const valid = {
    ruc: '20605200983',
    name: 'TRANSPORTES ANDINOS S.A.C.',
    tradeName: 'Andinos Cargo',
    address: 'Av. Argentina 1234, Lima',
    mtcRegistration: '1532cxno',
    guidesBeforeDeparture: true,
  };
  const put = (body: unknown, token = admin) => t.call('PUT', '/api/settings/company', { token, body });

  it('starts from the configured issuer with no MTC registration; only admins read and write it', async () => {
    const first = await t.call('GET', '/api/settings/company', { token: admin });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      ruc: expect.stringMatching(/^\d{11}$/),
      mtcRegistration: null,
      guidesBeforeDeparture: true,
      updatedAt: null,
    });
    expect((await t.call('GET', '/api/settings/company', { token: agent })).statusCode).toBe(403);
    expect((await put(valid, agent)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/settings/company')).statusCode).toBe(401);
  });

  it('saves RUC, name, address, MTC and logo, audited with before and after; the logo is re-encoded and served', async () => {
    const saved = await put({ ...valid, logo: PHOTO_JPEG });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ ...valid, mtcRegistration: '1532CXNO', logoType: 'image/jpeg', updatedByName: expect.any(String) });
    const logo = await t.call('GET', '/api/settings/company/logo', { token: admin });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/jpeg');

    // Absent logo keeps it; null removes it.
    const kept = await put({ ...valid, address: 'Jr. Cusco 456, Lima' });
    expect(kept.json()).toMatchObject({ address: 'Jr. Cusco 456, Lima', logoType: 'image/jpeg' });
    const removed = await put({ ...valid, logo: null, guidesBeforeDeparture: false });
    expect(removed.json()).toMatchObject({ logoType: null, guidesBeforeDeparture: false });
    expect((await t.call('GET', '/api/settings/company/logo', { token: admin })).json().error).toBe(COMPANY_MESSAGES.noLogo);

    const audits = await rows(sql`select action, before, after from audit_log where entity = 'company' order by id`);
    expect(audits).toHaveLength(3);
    expect(audits[0]!.before).toMatchObject({ mtcRegistration: null });
    expect(audits[0]!.after).toMatchObject({ mtcRegistration: '1532CXNO' });
    expect(audits[2]!.after).toMatchObject({ guidesBeforeDeparture: false });
    expect(Number((await rows(sql`select count(*)::int as n from company`))[0]!.n)).toBe(1);
  });

  it('refuses a bad RUC, a blank name, a bad MTC number and a logo that is not an image (400, Spanish, nothing changed)', async () => {
    const before = (await t.call('GET', '/api/settings/company', { token: admin })).json();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...valid, ruc: '20605200984' }, 'ruc', CUSTOMER_MESSAGES.rucCheckDigit],
      [{ ...valid, name: '   ' }, 'name', COMPANY_MESSAGES.nameRequired],
      [{ ...valid, mtcRegistration: '15 32-CX' }, 'mtcRegistration', COMPANY_MESSAGES.mtcInvalid],
      [{ ...valid, logo: 'data:image/gif;base64,R0lGODlh' }, 'logo', COMPANY_MESSAGES.logoType],
    ];
    for (const [body, field, message] of cases) {
      const res = await put(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
    // A PNG declared as JPEG decodes as neither: refused by the re-encoder, not stored.
    const lying = await put({ ...valid, logo: SIGNATURE_PNG.replace('image/png', 'image/jpeg') });
    expect(lying.statusCode).toBe(400);
    expect(lying.json().fields.logo).toBe(COMPANY_MESSAGES.logoType);
    expect((await t.call('GET', '/api/settings/company', { token: admin })).json()).toEqual(before);
  });

  it('two admins saving at once leave one row and two audited changes', async () => {
    const before = Number((await rows(sql`select count(*)::int as n from audit_log where entity = 'company'`))[0]!.n);
    const results = await Promise.all([put({ ...valid, mtcRegistration: 'AAA111' }), put({ ...valid, mtcRegistration: 'BBB222' })]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(Number((await rows(sql`select count(*)::int as n from company`))[0]!.n)).toBe(1);
    const after = Number((await rows(sql`select count(*)::int as n from audit_log where entity = 'company'`))[0]!.n);
    expect(after - before).toBe(2);
    const final = (await t.call('GET', '/api/settings/company', { token: admin })).json();
    expect(['AAA111', 'BBB222']).toContain(final.mtcRegistration);
  });

  it('the cargo manifest is headed by the company data with its MTC registration', async () => {
    await put({ ...valid, mtcRegistration: 'MTC987' });
    const created = await t.call('POST', '/api/transports', { token: admin, body: { plate_primary: 'EMP-001', capacity_kg: 100 } });
    expect(created.statusCode, created.body).toBe(201);
    const transport = created.json() as { id: number };
    const res = await fetch(`${t.baseUrl}/api/transports/${transport.id}/manifest.pdf`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-company-'));
    try {
      fs.writeFileSync(path.join(dir, 'm.pdf'), Buffer.from(await res.arrayBuffer()));
      const text = execFileSync('pdftotext', [path.join(dir, 'm.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      expect(text).toContain('Andinos Cargo');
      expect(text).toContain('RUC 20605200983 · Av. Argentina 1234, Lima · Registro MTC MTC987');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
