import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { customers } from '../src/db/schema.ts';
import { addShipmentEvent } from '../src/modules/shipments/index.ts';
import { deliverDueNotifications } from '../src/modules/notifications/index.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

interface Mail {
  to: string;
  raw: string;
}

/** A real SMTP server on a free port, started by the test; `failing` makes it refuse every message. */
async function startSmtp() {
  const mails: Mail[] = [];
  const state = { failing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        if (state.failing) return callback(Object.assign(new Error('Buzón no disponible'), { responseCode: 451 }));
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { mails, state, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A local stand-in for the WhatsApp Cloud API: records what it is sent with the right token. */
async function startFakeWhatsApp() {
  const messages: { path: string; auth: string | undefined; body: { to: string; text: { body: string } } }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      messages.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ messages: [{ id: `wamid.${messages.length}` }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { messages, url: `http://127.0.0.1:${port}/v21.0`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Issue 18: the outbox written with the event, the worker, the channels, the admin screen's API. */
describe.each(engines)('notifications (%s)', (engine) => {
  let t: TestContext;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let whatsapp: Awaited<ReturnType<typeof startFakeWhatsApp>>;
  let admin: string;
  let agentLima: string;
  let lima: number;
  let arequipa: number;
  let senderId: number;

  beforeAll(async () => {
    [smtp, whatsapp] = await Promise.all([startSmtp(), startFakeWhatsApp()]);
    const base = loadConfig({});
    t = await startTestApp(engine, {
      config: {
        publicUrl: 'https://envios.tramo.pe',
        notify: {
          ...base.notify,
          smtpUrl: smtp.url,
          whatsappApiUrl: whatsapp.url,
          whatsappToken: 'token-de-prueba',
          whatsappPhoneNumberId: '1234567890',
          timeoutMs: 5000,
          pollMs: 0,
        },
      },
      seed: async (db, ids) => {
        await seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] });
        const [c] = await db
          .insert(customers)
          .values({ firstName: 'Luis', lastName: 'Mendoza', docType: 1, docNumber: '40222333', email: 'luis@correo.pe', phone: '987 654 321' })
          .returning({ id: customers.id });
        senderId = c!.id;
      },
    });
    [admin, agentLima] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await whatsapp?.close();
  });

  const rows = async (shipmentId: number) =>
    (
      await t.database.db.execute(
        sql`select topic, channel, party, address, status, attempts, idempotency_key as key from notification_outbox where shipment_id = ${shipmentId} order by id`,
      )
    ).rows as { topic: string; channel: string; party: string; address: string; status: string; attempts: number; key: string }[];

  const create = async (over: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/shipments', {
      token: agentLima,
      body: shipmentBody(
        { originBranchId: lima, destinationBranchId: arequipa },
        { senderCustomerId: senderId, senderName: 'Luis Mendoza', ...over },
      ),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; code: string };
  };

  it('writes a message per party and address with the registration, and the worker sends them by e-mail and WhatsApp', async () => {
    const s = await create({ recipientEmail: 'maria@correo.pe', recipientPhone: '912345678' });
    expect(await rows(s.id)).toEqual([
      expect.objectContaining({ topic: 'registered', channel: 'email', party: 'sender', address: 'luis@correo.pe', status: 'pendiente' }),
      expect.objectContaining({ topic: 'registered', channel: 'whatsapp', party: 'sender', address: '987 654 321' }),
      expect.objectContaining({ topic: 'registered', channel: 'email', party: 'recipient', address: 'maria@correo.pe' }),
      expect.objectContaining({ topic: 'registered', channel: 'whatsapp', party: 'recipient', address: '912345678' }),
    ]);
    await deliverDueNotifications(t.app);
    expect((await rows(s.id)).map((r) => r.status)).toEqual(['enviado', 'enviado', 'enviado', 'enviado']);
    const mail = smtp.mails.find((m) => m.to === 'maria@correo.pe' && m.raw.includes(s.code));
    expect(mail?.raw).toContain(`https://envios.tramo.pe/seguimiento/${s.code}`);
    expect(mail?.raw).toMatch(/Subject: =?.*/);
    const wa = whatsapp.messages.filter((m) => m.body.text.body.includes(s.code));
    expect(wa.map((m) => m.body.to).sort()).toEqual(['51912345678', '51987654321']);
    // With the link's key: without it the page shows only the status (issue 31, F10).
    for (const m of wa) expect(m.body.text.body).toContain(`https://envios.tramo.pe/seguimiento/${s.code}?k=${t.app.trackingLinks.key(s.code)}`);
    expect(wa[0]).toMatchObject({ path: '/v21.0/1234567890/messages', auth: 'Bearer token-de-prueba' });
    expect(wa[0]!.body.text.body).toContain(`registramos tu envío ${s.code} de Lima a Arequipa`);
  });

  it('announces departure and delivery; other events (a checkpoint, the same status again) write nothing', async () => {
    const s = await create({ recipientEmail: 'rosa@correo.pe' });
    await t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: agentLima, body: { name: 'Revisado' } });
    await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: agentLima, body: { status: 'En tránsito' } });
    await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: agentLima, body: { status: 'En tránsito', note: 'Sigue en ruta' } });
    const delivered = await t.call('POST', `/api/shipments/${s.id}/deliver`, {
      token: admin,
      body: { secretCode: 'clave-7', receiverName: 'Rosa Quispe', receiverDoc: '40111222', deliveredByName: 'Jorge Mamani' },
    });
    expect(delivered.statusCode).toBe(200);
    const topics = (await rows(s.id)).filter((r) => r.party === 'recipient').map((r) => r.topic);
    expect(topics).toEqual(['registered', 'departed', 'delivered']);
  });

  it('writes the messages in the transaction of the event: an event that fails leaves none', async () => {
    const s = await create({ recipientEmail: 'ana@correo.pe' });
    const before = (await rows(s.id)).length;
    const actor = {
      id: 1,
      username: 'ADMIN',
      firstName: 'Ana',
      lastName: 'Quispe',
      email: null,
      role: 'admin' as const,
      branchId: lima,
      branchName: 'Lima',
      mustChangePassword: false,
      tokenVersion: 0,
    };
    await expect(
      t.app.db.transaction(async (tx) => {
        await addShipmentEvent(tx, actor, t.clock.now(), s.id, {
          kind: 'status',
          name: 'En tránsito',
          statusFrom: 'Creado',
          statusTo: 'En tránsito',
        });
        expect((await tx.execute(sql`select count(*)::int as n from notification_outbox where shipment_id = ${s.id}`)).rows[0]).toEqual({
          n: before + 3,
        });
        throw new Error('la salida falló después del evento');
      }),
    ).rejects.toThrow('la salida falló');
    expect(await rows(s.id)).toHaveLength(before);
  });

  it('delivers each message once under two concurrent workers', async () => {
    const created = [];
    for (let i = 0; i < 4; i++) created.push(await create({ recipientEmail: `cliente${i}@correo.pe` }));
    const sentBefore = smtp.mails.length;
    await Promise.all([deliverDueNotifications(t.app), deliverDueNotifications(t.app)]);
    const codes = created.map((s) => s.code);
    const mails = smtp.mails.slice(sentBefore).filter((m) => codes.some((c) => m.raw.includes(c)));
    // Per shipment: the sender's e-mail and the recipient's, each exactly once.
    expect(mails).toHaveLength(8);
    for (const s of created) {
      const states = (await rows(s.id)).map((r) => [r.channel, r.status, r.attempts]);
      expect(states).toEqual([
        ['email', 'enviado', 1],
        ['whatsapp', 'enviado', 1],
        ['email', 'enviado', 1],
      ]);
    }
  });

  it('retries after an SMTP failure with backoff, then sends once; an admin sees and can resend it', async () => {
    await deliverDueNotifications(t.app);
    const s = await create({ recipientEmail: 'lucia@correo.pe' });
    smtp.state.failing = true;
    try {
      await deliverDueNotifications(t.app);
    } finally {
      smtp.state.failing = false;
    }
    const failed = (await rows(s.id)).find((r) => r.address === 'lucia@correo.pe')!;
    expect(failed).toMatchObject({ status: 'pendiente', attempts: 1 });
    // Not due yet: the first retry waits 30 s.
    await deliverDueNotifications(t.app);
    expect((await rows(s.id)).find((r) => r.address === 'lucia@correo.pe')).toMatchObject({ status: 'pendiente', attempts: 1 });
    t.clock.advance(31_000);
    await deliverDueNotifications(t.app);
    expect((await rows(s.id)).find((r) => r.address === 'lucia@correo.pe')).toMatchObject({ status: 'enviado', attempts: 2 });
    expect(smtp.mails.filter((m) => m.to === 'lucia@correo.pe')).toHaveLength(1);

    const list = await t.call('GET', '/api/notifications?status=enviado&channel=email&pageSize=100', { token: admin });
    expect(list.statusCode).toBe(200);
    const item = list.json().items.find((n: { address: string }) => n.address === 'lucia@correo.pe');
    expect(item).toMatchObject({ shipmentCode: s.code, topic: 'registered', status: 'enviado', attempts: 2, link: `/seguimiento/${s.code}` });
    expect(list.json().items.every((n: { status: string; channel: string }) => n.status === 'enviado' && n.channel === 'email')).toBe(true);
    expect((await t.call('GET', '/api/notifications', { token: agentLima })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/notifications?status=leido', { token: admin })).statusCode).toBe(400);

    const resent = await t.call('POST', `/api/notifications/${item.id}/resend`, { token: admin });
    expect(resent.json()).toMatchObject({ status: 'pendiente', attempts: 0 });
    await deliverDueNotifications(t.app);
    expect(smtp.mails.filter((m) => m.to === 'lucia@correo.pe')).toHaveLength(2);
    expect((await t.call('POST', '/api/notifications/999999/resend', { token: admin })).statusCode).toBe(404);
  });
});
