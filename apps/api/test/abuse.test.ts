import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { LOGIN_THROTTLE } from '@tramo/domain';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, statusCounts, type TestContext, type TestResponse } from './harness.ts';

// Every password the server checks goes through verifyPassword: the real function, counted, tells
// how many guesses of a burst were actually tried against the hash.
const checks = vi.hoisted(() => ({ passwords: 0 }));
vi.mock('../src/lib/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/lib/passwords.ts')>();
  return {
    ...real,
    verifyPassword: (hash: string, password: string) => {
      checks.passwords++;
      return real.verifyPassword(hash, password);
    },
  };
});

const countAnswers = (answers: TestResponse[]) => statusCounts(answers.map((r) => r.statusCode));

/** The figures of a burst, printed for the hardening report (never asserted on timing). */
const report = (what: string, figures: Record<string, unknown>) => console.info(`[abuse] ${what}: ${JSON.stringify(figures)}`);

describe.each(engines)('parallel abuse (%s)', (engine) => {
  // PostgreSQL serves many connections at once; the embedded engine one query at a time.
  const burst = engine === 'postgres' ? 1000 : 200;
  let t: TestContext;
  let admin: string;
  let agentLima: string;
  let courierArequipa: string;

  beforeAll(async () => {
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] }),
    });
    [admin, agentLima, courierArequipa] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('REPARTIDOR1')]);
  });
  afterAll(() => t?.close());

  const scalar = async (query: ReturnType<typeof sql>) => {
    const r = await t.database.db.execute(query);
    return Number((r.rows[0] as { n: number | string }).n);
  };
  const login = (username: string, password: string) => t.call('POST', '/api/auth/login', { body: { username, password } });
  /** Every test starts in a fresh throttle window (the earlier bursts used up the address's). */
  const nextWindow = () => t.clock.advance((LOGIN_THROTTLE.windowMinutes + 1) * 60_000);

  it(`${burst} parallel wrong logins for one user check at most 10 passwords; the right one inside the burst gets no token`, async () => {
    nextWindow();
    checks.passwords = 0;
    let overLimit!: () => void;
    const refusedOnce = new Promise<void>((resolve) => (overLimit = resolve));
    const wrong = Array.from({ length: burst }, (_, i) =>
      login('AGENTE2', `equivocada-${i}`).then((res) => {
        if (res.statusCode === 429) overLimit();
        return res;
      }),
    );
    // Once one attempt has been refused the user is over the limit: the right password, sent
    // while the rest of the burst is still in flight, must not get through.
    await Promise.race([refusedOnce, Promise.all(wrong)]);
    const right = await Promise.all(Array.from({ length: 20 }, () => login('AGENTE2', 'agente123')));
    const answers = await Promise.all(wrong);
    const counts = countAnswers(answers);
    report(`login burst, one user (${engine})`, {
      tried: burst,
      refused429: counts[429] ?? 0,
      checked: checks.passwords,
      rightRefused: right.length,
    });

    expect(checks.passwords).toBeLessThanOrEqual(LOGIN_THROTTLE.maxFailuresPerUser);
    // A checked wrong password answers 401; every other attempt was refused unchecked.
    expect(counts[401] ?? 0).toBe(checks.passwords);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(burst);
    for (const res of right) {
      expect(res.statusCode).toBe(429);
      expect(res.body).not.toMatch(/token/);
    }
    expect(answers.every((res) => !res.body.includes('token'))).toBe(true);

    nextWindow();
    expect((await login('AGENTE2', 'agente123')).statusCode).toBe(200);
  });

  it(`${burst} parallel wrong logins for different users from one address check at most 30 passwords`, async () => {
    nextWindow();
    checks.passwords = 0;
    const answers = await Promise.all(Array.from({ length: burst }, (_, i) => login(`FANTASMA${i}`, 'equivocada')));
    const counts = countAnswers(answers);
    report(`login burst, one address (${engine})`, { tried: burst, refused429: counts[429] ?? 0, checked: checks.passwords });
    expect(checks.passwords).toBeLessThanOrEqual(LOGIN_THROTTLE.maxFailuresPerAddress);
    expect(counts[401] ?? 0).toBe(checks.passwords);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(burst);
    expect((await login('ADMIN', 'admin123')).statusCode).toBe(429);
  });

  /** A Lima → Arequipa shipment (its secret code is `clave-7`). */
  const shipment = () => shipmentBody({ originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! });

  it('50 parallel wrong secret codes: 5 counted, the lock holds, and the right code inside the burst is refused', async () => {
    const created = await t.call('POST', '/api/shipments', { token: agentLima, body: shipment() });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    const deliver = (secretCode: string) =>
      t.call('POST', `/api/shipments/${id}/deliver`, {
        token: courierArequipa,
        body: { secretCode, receiverName: 'María Flores Ccori', receiverDoc: '45879612', deliveredByName: 'Jorge Mamani' },
      });
    let locked!: () => void;
    const lockedOnce = new Promise<void>((resolve) => (locked = resolve));
    const wrong = Array.from({ length: 50 }, (_, i) =>
      deliver(`mala-${i}`).then((res) => {
        if (res.statusCode === 429) locked();
        return res;
      }),
    );
    await Promise.race([lockedOnce, Promise.all(wrong)]);
    const right = await Promise.all(Array.from({ length: 5 }, () => deliver('clave-7')));
    const counts = countAnswers(await Promise.all(wrong));
    const failures = await scalar(sql`select failures as n from delivery_attempts where shipment_id = ${id}`);
    report(`secret-code burst (${engine})`, { tried: 50, wrong422: counts[422] ?? 0, refused429: counts[429] ?? 0, counted: failures });

    // Four wrong codes answer 422, the fifth locks (429), and nothing after it is checked.
    expect(counts).toEqual({ 422: 4, 429: 46 });
    expect(failures).toBe(5);
    expect(right.map((r) => r.statusCode)).toEqual([429, 429, 429, 429, 429]);
    const after = await t.call('GET', `/api/shipments/${id}`, { token: admin });
    expect(after.json().status).toBe('Creado');
  });

  it('50 parallel creations of one customer document: one 201, 49 409, one row', async () => {
    const customer = {
      firstName: 'Teresa',
      lastName: 'Cahuana Puma',
      doc_type: 1,
      doc_number: '30412345',
      address: 'Jr. Puno 120, Cusco',
      ubigeo: '080101',
      phone: '984112233',
      email: 'teresa@example.pe',
    };
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.call('POST', '/api/customers', { token: admin, body: customer })));
    const counts = countAnswers(answers);
    report(`duplicate-customer burst (${engine})`, { tried: 50, created: counts[201] ?? 0, refused409: counts[409] ?? 0 });
    expect(counts).toEqual({ 201: 1, 409: 49 });
    expect(await scalar(sql`select count(*) as n from customers where doc_number = '30412345'`)).toBe(1);
  });

  it('200 parallel shipment creations get 200 unique, gapless codes', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, () => t.call('POST', '/api/shipments', { token: agentLima, body: shipment() })));
    expect(countAnswers(answers)).toEqual({ 201: 200 });
    const numbers = answers.map((r) => Number(r.json().code.slice(4))).sort((a, b) => a - b);
    report(`shipment-creation burst (${engine})`, { tried: 200, created: answers.length, first: numbers[0], last: numbers.at(-1) });
    expect(new Set(numbers).size).toBe(200);
    expect(numbers.at(-1)! - numbers[0]!).toBe(199);
  });
});
