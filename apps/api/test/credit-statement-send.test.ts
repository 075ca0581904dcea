import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { execFileSync } from 'node:child_process';
import { limaDay, STATEMENT_SEND_MESSAGES } from '@tramo/domain';
import { loadConfig } from '../src/config.ts';
import { deliverDueNotifications } from '../src/modules/notifications/index.ts';
import type { NotifyProvider, OutgoingMessage } from '../src/providers/notify/index.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/*
 * Issue 35, item 5: 'Enviar' the estado de cuenta through the notifications outbox, by e-mail with
 * the PDF attached or by WhatsApp with a signed, expiring link that opens without a session.
 */

const RUC = '20100070970';
const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');

/** A channel that accepts every message and keeps it, as a provider would have received it. */
function recordingNotifier() {
  const sent: OutgoingMessage[] = [];
  const provider: NotifyProvider = { name: 'email+whatsapp', handles: () => true, send: async (m) => void sent.push(m) };
  return { sent, provider };
}

describe.each(engines)('sending the estado de cuenta (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let customerId: number;
  let phoneOnlyId: number;
  let shipmentCode: string;
  const notifier = recordingNotifier();

  beforeAll(async () => {
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '10.00']] }),
      config: { publicUrl: 'https://envios.tramo.pe', notify: { ...loadConfig({}).notify, pollMs: 0 } },
      providers: { notify: notifier.provider },
    });
    const agent = await t.login('AGENTE1');
    admin = await t.login('ADMIN');
    const customer = async (doc: string, name: string) => {
      const res = await t.call('POST', '/api/customers', {
        token: admin,
        body: { doc_type: 6, doc_number: doc, firstName: name, address: 'Av. Lima 100' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    customerId = await customer(RUC, 'SUPERMERCADOS PERUANOS S.A.');
    phoneOnlyId = await customer('20131312955', 'TRANSPORTES ICA S.A.C.');
    const account = (id: number, contact: Record<string, string>) =>
      t.call('PUT', `/api/credit/accounts/${id}`, {
        token: admin,
        body: { limit: '1500', termsDays: 30, period: 'mensual', contactName: 'Rosa Díaz', ...contact },
      });
    expect((await account(customerId, { contactEmail: 'cobranzas@spsa.pe', contactPhone: '987654321' })).statusCode).toBe(200);
    expect((await account(phoneOnlyId, { contactPhone: '912345678' })).statusCode).toBe(200);
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    const shipment = await t.call('POST', '/api/shipments', {
      token: agent,
      body: shipmentBody(route, { senderCustomerId: customerId, payer: 'remitente', paymentMoment: 'credito' }),
    });
    expect(shipment.statusCode, shipment.body).toBe(201);
    shipmentCode = shipment.json().code;
  });
  afterAll(async () => {
    await t?.close();
  });

  const today = () => limaDay(t.clock.now());
  const period = () => ({ from: `${today().slice(0, 8)}01`, to: today() });
  const send = (id: number, body: Record<string, unknown>, key?: string) =>
    t.call('POST', `/api/credit/accounts/${id}/statement/send`, { token: admin, body, headers: key ? { 'idempotency-key': key } : {} });
  const outbox = async (id: number) =>
    (
      await t.database.db.execute(
        sql`select id, topic, channel, party, address, link, attachment_name as "attachmentName", status from notification_outbox where id = ${id}`,
      )
    ).rows[0] as Record<string, unknown>;
  const count = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);

  it('e-mails the PDF to the statement contact once per Idempotency-Key, even when the key comes 5 times at once; audited once', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(customerId, { ...period(), channel: 'email' }, 'envio-estado-1')));
    for (const res of answers) expect(res.statusCode, res.body).toBe(202);
    const ids = new Set(answers.map((r) => r.json().notificationId as number));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => r.json().queued)).toHaveLength(1);
    const [id] = [...ids] as [number];
    expect(await outbox(id)).toMatchObject({
      topic: 'credit_statement',
      channel: 'email',
      party: 'customer',
      address: 'cobranzas@spsa.pe',
      link: '',
      attachmentName: `estado-de-cuenta-${RUC}-${period().from}-${period().to}.pdf`,
      status: 'pendiente',
    });
    expect(await count(sql`select count(*) as n from notification_outbox where topic = 'credit_statement'`)).toBe(1);
    expect(
      await count(
        sql`select count(*) as n from audit_log where entity = 'credit_account' and action = 'statement-send' and entity_id = ${String(customerId)}`,
      ),
    ).toBe(1);

    await deliverDueNotifications(t.app);
    const mails = notifier.sent.filter((m) => m.channel === 'email');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ address: 'cobranzas@spsa.pe', subject: expect.stringContaining('SUPERMERCADOS PERUANOS S.A.') });
    const text = pdfText(mails[0]!.attachments![0]!.content);
    expect(text).toContain('ESTADO DE CUENTA');
    expect(text).toContain(`RUC: ${RUC}`);
    expect(text).toMatch(new RegExp(`${shipmentCode}\\s+S/ \\d+\\.\\d{2}`)); // the credit shipment, with its amount
    expect((await outbox(id)).status).toBe('enviado');

    // The same key again, later: nothing new is queued or sent; the key on another period is refused.
    const again = await send(customerId, { ...period(), channel: 'email' }, 'envio-estado-1');
    expect(again.json()).toMatchObject({ notificationId: id, queued: false });
    const reused = await send(customerId, { from: '2026-01-01', to: '2026-01-31', channel: 'email' }, 'envio-estado-1');
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toBe(STATEMENT_SEND_MESSAGES.keyReused);
    await deliverDueNotifications(t.app);
    expect(notifier.sent.filter((m) => m.channel === 'email')).toHaveLength(1);
  });

  it('sends WhatsApp a signed link that opens the PDF without a session, and refuses it altered or expired', async () => {
    const res = await send(customerId, { ...period(), channel: 'whatsapp' }, 'envio-estado-2');
    expect(res.statusCode, res.body).toBe(202);
    const row = await outbox(res.json().notificationId);
    expect(row).toMatchObject({ channel: 'whatsapp', address: '987654321', attachmentName: null });
    await deliverDueNotifications(t.app);
    const message = notifier.sent.find((m) => m.channel === 'whatsapp')!;
    const url = message.body.split('\n').at(-1)!;
    expect(url).toBe(`https://envios.tramo.pe${String(row.link)}`);
    const path = url.slice('https://envios.tramo.pe'.length);

    const pdf = await fetch(`${t.baseUrl}${path}`); // no session
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain('SUPERMERCADOS PERUANOS S.A.');

    const forged = await t.call('GET', path.replace(`from=${period().from}`, 'from=2020-01-01'));
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error).toBe(STATEMENT_SEND_MESSAGES.linkInvalid);
    expect((await t.call('GET', path.replace(/k=[^&]+/, 'k=AAAAAAAAAA'))).statusCode).toBe(403);
    expect((await t.call('GET', path.replace(`/statements/${customerId}/`, `/statements/${phoneOnlyId}/`))).statusCode).toBe(403);
    t.clock.advance(8 * 86_400_000);
    try {
      expect((await t.call('GET', path)).statusCode).toBe(403);
    } finally {
      t.clock.advance(-8 * 86_400_000);
    }
  });

  it('refuses in Spanish what it cannot send, and changes nothing', async () => {
    const before = await count(sql`select count(*) as n from notification_outbox`);
    const noEmail = await send(phoneOnlyId, { ...period(), channel: 'email' }, 'envio-estado-3');
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json()).toMatchObject({ error: STATEMENT_SEND_MESSAGES.noEmail, fields: { channel: STATEMENT_SEND_MESSAGES.noEmail } });
    await t.database.db.execute(sql`update credit_accounts set contact_email = null, contact_phone = null where customer_id = ${phoneOnlyId}`);
    const noContact = await send(phoneOnlyId, { ...period(), channel: 'whatsapp' });
    expect(noContact.statusCode).toBe(422);
    expect(noContact.json().error).toBe(STATEMENT_SEND_MESSAGES.noPhone);

    const badDay = await send(customerId, { from: '2026-02-30', to: today(), channel: 'email' });
    expect(badDay.statusCode).toBe(400);
    expect(JSON.stringify(badDay.json())).toContain('Fecha inválida (AAAA-MM-DD).');
    const badChannel = await send(customerId, { ...period(), channel: 'sms' });
    expect(badChannel.statusCode).toBe(400);
    expect(JSON.stringify(badChannel.json())).toContain(STATEMENT_SEND_MESSAGES.channel);
    const reversed = await send(customerId, { from: today(), to: '2020-01-01', channel: 'email' });
    expect(reversed.statusCode).toBe(422);
    expect((await send(999_999, { ...period(), channel: 'email' })).statusCode).toBe(404);
    const agent = await t.login('AGENTE1');
    const asAgent = await t.call('POST', `/api/credit/accounts/${customerId}/statement/send`, {
      token: agent,
      body: { ...period(), channel: 'email' },
    });
    expect(asAgent.statusCode).toBe(403);
    expect(await count(sql`select count(*) as n from notification_outbox`)).toBe(before);
  });
});
