import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseSandboxStore, type SandboxRecord } from '../src/providers/billing/index.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** A record as the sandbox keeps one; `fingerprint` tells two documents under one number apart. */
function record(number: number, fingerprint: string): SandboxRecord {
  return {
    key: `03-BBB1-${number}`,
    type: '03',
    series: 'BBB1',
    number,
    issueDate: '2026-11-27',
    viaDailySummary: true,
    fingerprint,
    hash: `hash-${fingerprint}`,
    qrText: 'qr',
    xml: '<Invoice/>',
    receivedAt: '2026-11-27T15:00:00.000Z',
    acceptedAt: '2026-11-27T15:00:00.000Z',
    rejection: null,
    voidRequestedAt: null,
    voidedAt: null,
    voidReason: null,
    voidTicket: null,
  };
}

// The sandbox's one-statement insert-or-answer (issue 37): a retry finds the first attempt's record,
// another document never replaces it, and of concurrent senders of one number exactly one is kept.
describe.each(engines)("the sandbox's table keeps the first document of a number (%s)", (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(engine);
  });
  afterAll(() => ctx.close());

  it('keeps a new record, and answers the held one to a second record of its number without replacing it', async () => {
    const store = databaseSandboxStore(ctx.database.db);
    const first = record(1, 'first');
    expect(await store.add(first)).toBeNull();
    expect(await store.get(first.key)).toEqual(first);
    expect(await store.add(record(1, 'other'))).toEqual(first);
    expect(await store.get(first.key)).toEqual(first);
  });

  it('of 16 concurrent records of one number, exactly one is kept and every other caller is answered it', async () => {
    const store = databaseSandboxStore(ctx.database.db);
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => store.add(record(2, `sender-${i}`))));
    const kept = answers.flatMap((a, i) => (a === null ? [i] : []));
    expect(kept).toHaveLength(1);
    const held = await store.get(record(2, '').key);
    expect(held).toEqual(record(2, `sender-${kept[0]}`));
    for (const answer of answers) if (answer !== null) expect(answer).toEqual(held);
  });
});
