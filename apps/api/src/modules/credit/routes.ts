import { z } from 'zod';
import {
  answers,
  collectionSchema,
  collectionVoidSchema,
  creditAccountDetailAnswerSchema,
  creditAccountAnswerSchema,
  creditAccountSchema,
  creditAgeingAnswerSchema,
  creditStatusAnswerSchema,
  creditStatementAnswerSchema,
  csvDialectFor,
  detractionDepositSchema,
  duePeriodsAnswerSchema,
  PERIOD_GROUPINGS,
  periodBatchAnswerSchema,
  periodBatchSchema,
  statementCsv,
  statementFileName,
  issueResultSchema,
  periodInvoicePreviewSchema,
  periodInvoiceSchema,
  recordId,
  statementQuerySchema,
  statementSendAnswerSchema,
  statementSendSchema,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { accountDetail, creditStatus, listAccounts, saveAccount } from './accounts.ts';
import { recordDetractionDeposit, registerCollection, voidCollection } from './collections.ts';
import { ageing } from './ageing.ts';
import { accountStatement } from './statement.ts';
import { issuePeriodInvoice, periodInvoicePreview } from './period-invoice.ts';
import { duePeriods, issueDuePeriods } from './period-batch.ts';
import { statementPdf } from './statement-pdf.ts';
import { publicStatementPdf, sendStatement } from './statement-send.ts';
import { getCompany } from '../company/index.ts';

const issueAnswers = {
  ...answers({ 200: issueResultSchema, 201: issueResultSchema, 202: issueResultSchema }),
  422: issueResultSchema,
  424: issueResultSchema,
};
const customerParams = z.object({ customerId: recordId('Cliente inválido') });
/** A client's retry token: the same key answers the same collection instead of taking the money twice. */
const idempotencyHeaders = z.object({
  'idempotency-key': z.string().trim().min(1).max(100, 'Idempotency-Key: máximo 100 caracteres').optional(),
});

/** Credit accounts, cobranza, detracciones and estados de cuenta (issue 35): the company's money, admins only. */
export default async function creditRoutes(app: App) {
  const tags = ['credit'];
  const admin = guard(app, { roles: ['admin'] });
  app.get(
    '/credit/accounts',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(creditAccountAnswerSchema) }),
        summary: 'Cuentas de crédito con su saldo, disponible y si tienen facturas vencidas',
      },
      preHandler: admin,
    },
    async () => listAccounts(app),
  );
  app.get(
    '/credit/accounts/:customerId',
    {
      schema: {
        tags,
        params: customerParams,
        response: answers({ 200: creditAccountDetailAnswerSchema }),
        summary: 'Una cuenta de crédito: facturas, cobros y envíos por facturar',
      },
      preHandler: admin,
    },
    async (request) => accountDetail(app, request.params.customerId),
  );
  app.put(
    '/credit/accounts/:customerId',
    {
      schema: {
        tags,
        params: customerParams,
        body: creditAccountSchema,
        response: answers({ 200: creditAccountDetailAnswerSchema }),
        summary: 'Abrir o cambiar la cuenta de crédito de un cliente con RUC (límite, plazo, periodo, contacto, estado). Auditado.',
      },
      preHandler: admin,
    },
    async (request) => saveAccount(app, currentUser(request), request.params.customerId, request.body),
  );
  app.post(
    '/credit/collections',
    {
      schema: {
        tags,
        headers: idempotencyHeaders,
        body: collectionSchema,
        response: answers({ 201: z.object({ id: z.number(), account: creditAccountDetailAnswerSchema }) }),
        summary: 'Registrar un cobro y aplicarlo a facturas (las más antiguas primero si no se indican); el exceso queda a favor. Auditado.',
      },
      preHandler: admin,
    },
    async (request, reply) =>
      reply.code(201).send(await registerCollection(app, currentUser(request), request.body, request.headers['idempotency-key'] ?? null)),
  );
  app.post(
    '/credit/collections/:id/void',
    {
      schema: {
        tags,
        params: idParams,
        body: collectionVoidSchema,
        response: answers({ 200: creditAccountDetailAnswerSchema }),
        summary: 'Anular un cobro con motivo: sus aplicaciones se liberan. Auditado.',
      },
      preHandler: admin,
    },
    async (request) => voidCollection(app, currentUser(request), request.params.id, request.body.reason),
  );
  app.post(
    '/credit/invoices/:id/detraction-deposit',
    {
      schema: {
        tags,
        params: idParams,
        body: detractionDepositSchema,
        response: answers({ 201: z.object({ documentId: z.number(), constancia: z.string(), depositedOn: z.string(), amount: z.number() }) }),
        summary: 'Registrar la constancia de depósito de la detracción de una factura. Auditado.',
      },
      preHandler: admin,
    },
    async (request, reply) => reply.code(201).send(await recordDetractionDeposit(app, currentUser(request), request.params.id, request.body)),
  );
  app.get(
    '/credit/accounts/:customerId/statement',
    {
      schema: {
        tags,
        params: customerParams,
        querystring: statementQuerySchema,
        response: answers({ 200: creditStatementAnswerSchema }),
        summary: 'Estado de cuenta de un periodo',
      },
      preHandler: admin,
    },
    async (request) => accountStatement(app, request.params.customerId, request.query.from, request.query.to),
  );
  app.get(
    '/credit/accounts/:customerId/statement.pdf',
    {
      schema: {
        tags,
        params: customerParams,
        querystring: statementQuerySchema,
        response: answers({ 200: z.string().describe('El PDF (application/pdf)') }),
        summary: 'Estado de cuenta de un periodo en PDF (A4)',
      },
      preHandler: admin,
    },
    async (request, reply) => {
      const statement = await accountStatement(app, request.params.customerId, request.query.from, request.query.to);
      const pdf = await statementPdf(statement, await getCompany(app));
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${statementFileName(statement, 'pdf')}"`)
        .header('cache-control', 'no-store')
        .send(pdf as unknown as string); // bytes go out as they are; the schema documents them
    },
  );
  app.post(
    '/credit/accounts/:customerId/statement/send',
    {
      schema: {
        tags,
        params: customerParams,
        headers: idempotencyHeaders,
        body: statementSendSchema,
        response: answers({ 202: statementSendAnswerSchema }),
        summary:
          "'Enviar' el estado de cuenta de un periodo al contacto de la cuenta: por correo con el PDF o por WhatsApp con un enlace firmado que vence (bandeja de salida). La misma Idempotency-Key lo envía una vez. Auditado.",
      },
      preHandler: admin,
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await sendStatement(app, currentUser(request), request.params.customerId, request.body, request.headers['idempotency-key'] ?? null)),
  );
  app.get(
    '/public/statements/:customerId/estado-de-cuenta.pdf',
    {
      schema: {
        tags: ['public'],
        security: [],
        params: customerParams,
        // Any text: a malformed link answers the same 403 as a forged or expired one.
        querystring: z.object({
          from: z.string().optional(),
          to: z.string().optional(),
          exp: z.string().optional(),
          k: z.string().max(64).optional(),
        }),
        response: answers({ 200: z.string().describe('El PDF (application/pdf)') }),
        summary: 'Estado de cuenta en PDF desde el enlace firmado de WhatsApp (sin sesión). Enlace alterado o vencido: 403.',
      },
    },
    async (request, reply) => {
      const { statement, pdf } = await publicStatementPdf(app, request.params.customerId, request.query);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${statementFileName(statement, 'pdf')}"`)
        .header('cache-control', 'no-store')
        .send(pdf as unknown as string); // bytes go out as they are; the schema documents them
    },
  );
  app.get(
    '/credit/accounts/:customerId/statement.csv',
    {
      schema: {
        tags,
        params: customerParams,
        querystring: statementQuerySchema,
        response: answers({ 200: z.string().describe('El CSV (text/csv)') }),
        summary: 'Estado de cuenta de un periodo en CSV (BOM, línea sep=, fechas dd/mm/aaaa)',
      },
      preHandler: admin,
    },
    async (request, reply) => {
      const statement = await accountStatement(app, request.params.customerId, request.query.from, request.query.to);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${statementFileName(statement, 'csv')}"`)
        .header('cache-control', 'no-store')
        .send(statementCsv(statement, csvDialectFor('es-PE')));
    },
  );
  app.get(
    '/credit/accounts/:customerId/invoice-period',
    {
      schema: {
        tags,
        params: customerParams,
        querystring: periodInvoiceSchema,
        response: answers({ 200: periodInvoicePreviewSchema }),
        summary: "Vista previa de 'Facturar periodo': los envíos a crédito del periodo sin facturar, las líneas, la detracción y el vencimiento",
      },
      preHandler: admin,
    },
    async (request) => periodInvoicePreview(app, currentUser(request), request.params.customerId, request.query),
  );
  app.post(
    '/credit/accounts/:customerId/invoice-period',
    {
      schema: {
        tags,
        params: customerParams,
        body: periodInvoiceSchema,
        response: issueAnswers,
        summary:
          "'Facturar periodo': una factura al crédito con los envíos del periodo (por envío o por ruta), con detracción y cuota según el plazo; el mismo periodo responde la misma factura",
      },
      preHandler: admin,
    },
    async (request, reply) => {
      const answer = await issuePeriodInvoice(app, currentUser(request), request.params.customerId, request.body);
      return reply.status(answer.statusCode).send(answer.result);
    },
  );
  app.get(
    '/credit/period-invoices/due',
    {
      schema: {
        tags,
        querystring: z.object({ grouping: z.enum(PERIOD_GROUPINGS, { error: 'Agrupación inválida: por envío o por ruta.' }).default('envio') }),
        response: answers({ 200: duePeriodsAnswerSchema }),
        summary:
          "Vista previa de 'Facturar periodos vencidos': por cuenta activa y periodo terminado con envíos a crédito sin facturar, los envíos, el total y la detracción",
      },
      preHandler: admin,
    },
    async (request) => duePeriods(app, currentUser(request), request.query.grouping),
  );
  app.post(
    '/credit/period-invoices',
    {
      schema: {
        tags,
        headers: idempotencyHeaders,
        body: periodBatchSchema,
        response: answers({ 200: periodBatchAnswerSchema }),
        summary:
          "'Facturar periodos vencidos': una factura de periodo por cada periodo de la vista previa, una a la vez; cada cuenta responde su resultado y un periodo ya facturado responde su factura",
      },
      preHandler: admin,
    },
    async (request) => issueDuePeriods(app, currentUser(request), request.body, request.headers['idempotency-key'] ?? null),
  );
  app.get(
    '/credit/customers/:customerId/status',
    {
      schema: {
        tags,
        params: customerParams,
        response: answers({ 200: creditStatusAnswerSchema }),
        summary: "Si el cliente tiene cuenta de crédito activa y cuánto le queda (el mostrador ofrece 'Crédito' solo entonces)",
      },
      preHandler: guard(app, { roles: ['admin', 'agent'] }),
    },
    async (request) => creditStatus(app, request.params.customerId),
  );
  app.get(
    '/credit/ageing',
    {
      schema: {
        tags,
        querystring: z.object({ overLimit: z.enum(['true', 'false'], { error: 'overLimit: true o false' }).optional() }),
        response: answers({ 200: creditAgeingAnswerSchema }),
        summary: 'Antigüedad de saldos por cliente (por vencer, 1–30, 31–60, 61–90, más de 90 días)',
      },
      preHandler: admin,
    },
    async (request) => ageing(app, { overLimitOnly: request.query.overLimit === 'true' }),
  );
}
