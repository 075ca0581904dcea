import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { loggerOptions } from '../src/plugins/logging.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** A log destination the test reads back. */
function memoryStream() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

describe.each(engines)('the server log keeps secrets and personal data out (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  const log = memoryStream();

  beforeAll(async () => {
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] }),
      log: { level: 'info', stream: log.stream },
    });
    admin = await t.login('ADMIN');
  });
  afterAll(() => t?.close());

  const shipment = (over: Record<string, unknown> = {}) =>
    shipmentBody(
      { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! },
      { recipientFirstName: 'Rosalía', recipientLastName: 'Huamaní Ccori', secretCode: 'clave-oculta', ...over },
    );
  const leaks = (text: string) =>
    ['$argon2', 'clave-oculta', 'Rosalía', 'Huamaní', '45879612', 'ana.quispe', 'Quispe', 'params:'].filter((s) => text.includes(s));

  it('a database refusal carrying hashes and personal data logs its SQLSTATE, not its parameters', async () => {
    // A trigger stands for any database error an INSERT can meet: the refused row carries the
    // secret code's hash and the recipient's name and document.
    await t.database.db.execute(sql`
      create function refuse_for_test() returns trigger language plpgsql as $$
      begin
        if new.recipient_doc = '45879612' then raise exception 'rechazado por la prueba' using errcode = 'P0001'; end if;
        return new;
      end $$`);
    await t.database.db.execute(sql`create trigger refuse_for_test before insert on shipments for each row execute function refuse_for_test()`);
    try {
      const res = await t.call('POST', '/api/shipments', { token: admin, body: shipment() });
      expect(res.statusCode, res.body).toBe(500);
      expect(res.json()).toEqual({ error: 'Error del servidor', code: 'INTERNAL' });
    } finally {
      await t.database.db.execute(sql`drop trigger refuse_for_test on shipments`);
    }
    const text = log.text();
    expect(text).toMatch(/"sqlState":"P0001"/);
    expect(leaks(text)).toEqual([]);
  });

  it('a NUL byte that reaches the database logs no password hash, secret or personal data', async () => {
    const user = await t.call('POST', '/api/users', {
      token: admin,
      body: {
        username: 'ANAQ',
        role: 'agent',
        firstName: 'Ana\u0000',
        lastName: 'Quispe',
        email: 'ana.quispe@example.pe',
        branchId: t.branchIds.get('Lima'),
      },
    });
    const sent = await t.call('POST', '/api/shipments', { token: admin, body: shipment({ recipientFirstName: 'Rosalía\u0000' }) });
    // Refused either at validation or by the database: a 400 both ways, never a 5xx.
    expect(user.statusCode).toBe(400);
    expect(sent.statusCode).toBe(400);
    expect(leaks(log.text())).toEqual([]);
  });

  it('redacts authorization headers, passwords, secret codes and tokens whatever logs them', () => {
    const out = memoryStream();
    const logger = pino({ ...loggerOptions('info'), base: null }, out.stream);
    logger.info(
      {
        headers: { authorization: 'Bearer eyJhbGciOi.secreto.firma', cookie: 'sid=abc' },
        body: { password: 'agente123', newPassword: 'nuevo123', currentPassword: 'viejo123', secretCode: 'clave-7', token: 'eyJtoken' },
        user: { passwordHash: '$argon2id$v=19$hash', secretCodeHash: '$argon2id$v=19$otro', tempPassword: 'Temporal9' },
      },
      'probe',
    );
    const text = out.text();
    for (const secret of ['eyJhbGciOi', 'sid=abc', 'agente123', 'nuevo123', 'viejo123', 'clave-7', 'eyJtoken', '$argon2', 'Temporal9']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[oculto]');
  });
});
