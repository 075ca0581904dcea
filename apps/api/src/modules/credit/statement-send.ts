import { randomUUID } from 'node:crypto';
import {
  addDays,
  CREDIT_MESSAGES,
  limaDay,
  statementFileName,
  statementLinkPath,
  statementLinkPayload,
  statementMessage,
  STATEMENT_LINK_DAYS,
  STATEMENT_SEND_MESSAGES,
  type StatementSendAnswer,
  type StatementSendValues,
} from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { getCompany } from '../company/index.ts';
import { enqueueMessage } from '../notifications/index.ts';
import * as repo from './repository.ts';
import { accountStatement } from './statement.ts';
import { statementPdf } from './statement-pdf.ts';

const DAY_MS = 86_400_000;

/** The statement as an A4 PDF with the company's letterhead. */
async function renderPdf(ctx: ServiceContext, customerId: number, from: string, to: string) {
  const statement = await accountStatement(ctx, customerId, from, to);
  return { statement, pdf: await statementPdf(statement, await getCompany(ctx)) };
}

/**
 * POST /credit/accounts/{customerId}/statement/send: the estado de cuenta to the account's statement
 * contact through the outbox, by e-mail with the PDF (as it reads now) or by WhatsApp with a signed
 * link valid STATEMENT_LINK_DAYS days. The message and its audit row are written in one transaction;
 * the client's key makes a retry answer the message already queued instead of sending it twice.
 */
export async function sendStatement(
  ctx: ServiceContext,
  actor: SessionUser,
  customerId: number,
  data: StatementSendValues,
  clientKey: string | null,
): Promise<StatementSendAnswer> {
  const account = await repo.accountOf(ctx.db, customerId);
  if (!account) throw notFound(CREDIT_MESSAGES.accountNotFound);
  const address = (data.channel === 'email' ? account.contactEmail : account.contactPhone)?.trim();
  if (!address) {
    const message = data.channel === 'email' ? STATEMENT_SEND_MESSAGES.noEmail : STATEMENT_SEND_MESSAGES.noPhone;
    throw unprocessable(message, { channel: message });
  }
  const { statement, pdf } = await renderPdf(ctx, customerId, data.from, data.to);
  const now = ctx.now();
  const expires = now.getTime() + STATEMENT_LINK_DAYS * DAY_MS;
  const text = statementMessage(statement, account.contactName, data.channel, addDays(limaDay(now), STATEMENT_LINK_DAYS));
  return ctx.db.transaction(async (tx) => {
    const queued = await enqueueMessage(
      tx,
      {
        topic: 'credit_statement',
        party: 'customer',
        channel: data.channel,
        address,
        subject: text.subject,
        body: text.body,
        ...(data.channel === 'email'
          ? { attachment: { name: statementFileName(statement, 'pdf'), content: pdf } }
          : { link: signedStatementPath(ctx, customerId, data.from, data.to, expires) }),
        idempotencyKey: `credit-statement:${customerId}:${clientKey ?? randomUUID()}`,
      },
      now,
    );
    if (!queued.created) {
      // The key already sent a statement: the same one is a retry, another one a client's mistake.
      if (queued.channel !== data.channel || queued.subject !== text.subject)
        throw conflict(STATEMENT_SEND_MESSAGES.keyReused, undefined, 'IDEMPOTENCY_KEY_REUSED');
      return { notificationId: queued.id, channel: data.channel, address: queued.address, queued: false };
    }
    await audit(tx, {
      userId: actor.id,
      entity: 'credit_account',
      entityId: customerId,
      action: 'statement-send',
      after: { from: data.from, to: data.to, channel: data.channel, address, closing: statement.closing, notificationId: queued.id },
    });
    return { notificationId: queued.id, channel: data.channel, address, queued: true };
  });
}

/**
 * The WhatsApp link: the tracking links' server key signs the account, the period and the expiry
 * (a distinct prefix, so a shipment code's key never opens a statement), no new secret to keep.
 */
function signedStatementPath(ctx: ServiceContext, customerId: number, from: string, to: string, expires: number): string {
  return statementLinkPath(customerId, from, to, expires, ctx.trackingLinks.key(statementLinkPayload(customerId, from, to, expires)));
}

export interface StatementLinkQuery {
  from?: string;
  to?: string;
  exp?: string;
  k?: string;
}

/**
 * GET /public/statements/{customerId}/estado-de-cuenta.pdf: what a WhatsApp link opens, without a
 * session. A wrong key, a changed period or a past expiry all answer the same 403.
 */
export async function publicStatementPdf(ctx: ServiceContext, customerId: number, query: StatementLinkQuery) {
  const { from, to, exp, k } = query;
  const expires = Number(exp);
  const valid =
    from !== undefined &&
    to !== undefined &&
    /^\d{4}-\d{2}-\d{2}$/.test(from) &&
    /^\d{4}-\d{2}-\d{2}$/.test(to) &&
    Number.isSafeInteger(expires) &&
    expires > ctx.now().getTime() &&
    ctx.trackingLinks.verify(statementLinkPayload(customerId, from, to, expires), k);
  if (!valid) throw forbidden(STATEMENT_SEND_MESSAGES.linkInvalid);
  return renderPdf(ctx, customerId, from, to);
}
