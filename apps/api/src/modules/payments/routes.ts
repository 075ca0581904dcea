import { z } from 'zod';
import {
  answers,
  cancelPaymentSchema,
  cashSessionListSchema,
  cashSessionSchema,
  checkRange,
  closeCashSessionSchema,
  collectShipmentPageSchema,
  currentCashSessionSchema,
  dailyReportSchema,
  dayQuerySchema,
  destinationReceivablesSchema,
  keysetChecks,
  keysetCursorFields,
  manualPaymentPageSchema,
  manualPaymentRequestSchema,
  manualPaymentResultSchema,
  manualPaymentSchema,
  movementFilterFields,
  movementPageSchema,
  MOVEMENTS_CSV_FILENAME,
  openCashSessionSchema,
  PAYMENT_METHOD_NAMES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  paymentCustomerSchema,
  paymentMethodSchema,
  receivablesAnswerSchema,
  searchTerm,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams, pagingQuery } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { closeSession, currentSession, openSession, sessionsOfDay } from './cash-sessions.ts';
import { dailyReport } from './daily-report.ts';
import { createManualPayment } from './create.ts';
import { cancelPayment, confirmManualPayment, getPayment, listManualPayments } from './lifecycle.ts';
import { movements, movementsCsv } from './movements.ts';
import { customerById, destinationReceivables, lookupCustomers, receivables, shipmentsToCollect } from './receivables.ts';

/** Create/confirm answer 201 (paid) or 202 (pending: the receipt failed, `error` says why; confirm retries). */
const paymentAnswers = { ...answers({ 201: manualPaymentResultSchema, 202: manualPaymentResultSchema }) };
const MOVEMENT_PAGE_SIZE = 20;
/** The day's payments come in one page of 200 (spec section 9). */
const PAYMENT_PAGE_SIZE = 200;
const movementQuery = checkRange(movementFilterFields.extend(pagingQuery.shape).extend(keysetCursorFields))
  .refine(keysetChecks.oneCursor.check, keysetChecks.oneCursor.params)
  .refine(keysetChecks.numbered(MOVEMENT_PAGE_SIZE).check, keysetChecks.numbered(MOVEMENT_PAGE_SIZE).params);

export default async function paymentRoutes(app: App) {
  const tags = ['payments'];
  // DESIGN.md section 4: payments, receivables and movements are for admins and agents (agents: their branch).
  const staff = guard(app, { roles: ['admin', 'agent'] });

  app.get(
    '/payments/methods',
    { schema: { tags, summary: 'Métodos de pago (código y nombre)', response: answers({ 200: z.array(paymentMethodSchema) }) }, preHandler: staff },
    async () => PAYMENT_METHODS.map((code) => ({ code, name: PAYMENT_METHOD_NAMES[code] })),
  );

  app.get(
    '/payments/manual',
    {
      schema: {
        tags,
        summary: 'Pagos manuales del día (hoy por defecto; agentes: su sucursal)',
        querystring: dayQuerySchema
          .extend({ status: z.enum(PAYMENT_STATUSES).optional() })
          .extend(pagingQuery.shape)
          .extend(keysetCursorFields)
          .refine(keysetChecks.oneCursor.check, keysetChecks.oneCursor.params)
          .refine(keysetChecks.numbered(PAYMENT_PAGE_SIZE).check, keysetChecks.numbered(PAYMENT_PAGE_SIZE).params),
        response: answers({ 200: manualPaymentPageSchema }),
      },
      preHandler: staff,
    },
    async (request) => {
      const { date, status, page = 1, pageSize = PAYMENT_PAGE_SIZE, after, before } = request.query;
      return listManualPayments(app, currentUser(request), date, status, { page, pageSize, after, before });
    },
  );
  app.post(
    '/payments/manual',
    {
      schema: {
        tags,
        summary:
          'Registrar un pago: queda pendiente, se emite el comprobante (boleta DNI / factura RUC) y se confirma (201). Si el comprobante falla queda pendiente (202, error) y /confirm lo reintenta. 409 si el envío ya tiene un pago pendiente o pagado.',
        body: manualPaymentRequestSchema,
        response: paymentAnswers,
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const answer = await createManualPayment(app, currentUser(request), request.body);
      return reply.status(answer.statusCode).send(answer.result);
    },
  );
  app.get(
    '/payments/manual/:id',
    { schema: { tags, summary: 'Un pago manual', params: idParams, response: answers({ 200: manualPaymentSchema }) }, preHandler: staff },
    async (request) => getPayment(app, currentUser(request), request.params.id),
  );
  app.post(
    '/payments/manual/:id/confirm',
    {
      schema: {
        tags,
        summary: 'Confirmar (o reintentar) un pago pendiente: emite o consulta su comprobante, nunca uno segundo. Idempotente.',
        params: idParams,
        response: paymentAnswers,
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const answer = await confirmManualPayment(app, currentUser(request), request.params.id);
      return reply.status(answer.statusCode).send(answer.result);
    },
  );
  const cancelOptions = {
    schema: {
      tags,
      summary: "Anular un pago (motivo; 'ERROR DEL SISTEMA' por defecto): anula su comprobante y registra el movimiento. 409 si ya está anulado.",
      params: idParams,
      body: cancelPaymentSchema,
      response: answers({ 200: manualPaymentSchema }),
    },
    preHandler: staff,
  };
  app.post('/payments/manual/:id/cancel', cancelOptions, async (request) =>
    cancelPayment(app, currentUser(request), request.params.id, request.body.motivo),
  );
  app.post('/payments/payments/:id/cancel', cancelOptions, async (request) =>
    cancelPayment(app, currentUser(request), request.params.id, request.body.motivo),
  );

  app.get(
    '/payments/customers-lookup',
    {
      schema: {
        tags,
        summary: 'Buscar clientes por documento o nombre (20 como máximo)',
        querystring: z.object({ q: searchTerm() }),
        response: answers({ 200: z.array(paymentCustomerSchema) }),
      },
      preHandler: staff,
    },
    async (request) => lookupCustomers(app, request.query.q),
  );
  app.get(
    '/payments/customers/:id',
    { schema: { tags, summary: 'Un cliente para el pago', params: idParams, response: answers({ 200: paymentCustomerSchema }) }, preHandler: staff },
    async (request) => customerById(app, request.params.id),
  );
  app.get(
    '/payments/receivables',
    {
      schema: {
        tags,
        summary: "Envíos por cobrar hoy: estado Creado, creados hoy (Lima), con 'Pagado' / 'No pagado' (agentes: origen su sucursal)",
        querystring: pagingQuery,
        response: answers({ 200: collectShipmentPageSchema }),
      },
      preHandler: staff,
    },
    async (request) => shipmentsToCollect(app, currentUser(request), request.query.page ?? 1, request.query.pageSize ?? 200),
  );
  app.get(
    '/payments/receivables/destination',
    {
      schema: {
        tags,
        summary:
          'Por cobrar en destino: envíos con pago en destino, En agencia o En tránsito hacia la sucursal, sin pago pagado (agentes: destino su sucursal)',
        querystring: pagingQuery,
        response: answers({ 200: collectShipmentPageSchema }),
      },
      preHandler: staff,
    },
    async (request) => shipmentsToCollect(app, currentUser(request), request.query.page ?? 1, request.query.pageSize ?? 200, 'destination'),
  );
  app.get(
    '/receivables/customers',
    {
      schema: {
        tags,
        summary: 'Cuentas por cobrar por cliente remitente: envíos no anulados sin pago pagado, fuera de los de crédito (saldo exacto)',
        querystring: z.object({ q: searchTerm() }),
        response: answers({ 200: receivablesAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => receivables(app, currentUser(request), request.query.q),
  );
  app.get(
    '/receivables/destination-branches',
    {
      schema: {
        tags,
        summary:
          'Por cobrar en destino por sucursal de destino: envíos con pago en destino no anulados ni entregados, sin pago pagado (agentes: su sucursal)',
        response: answers({ 200: destinationReceivablesSchema }),
      },
      preHandler: staff,
    },
    async (request) => destinationReceivables(app, currentUser(request)),
  );

  app.get(
    '/payments/report/movements',
    {
      schema: {
        tags,
        summary: 'Movimientos: filtros, paginado y totales del conjunto filtrado por método y estado (agentes: su sucursal; otra → 403)',
        querystring: movementQuery,
        response: answers({ 200: movementPageSchema }),
      },
      preHandler: staff,
    },
    async (request) => {
      const { page = 1, pageSize = MOVEMENT_PAGE_SIZE, after, before, ...filters } = request.query;
      return movements(app, currentUser(request), filters, { page, pageSize, after, before });
    },
  );
  app.get(
    '/payments/report/movements.csv',
    {
      schema: {
        tags,
        summary:
          "CSV de todos los movimientos filtrados (movimientos_filtrados.csv): BOM, línea sep=, separador ';' si la configuración regional usa coma decimal",
        querystring: checkRange(
          movementFilterFields.extend({
            locale: z
              .string()
              .max(35)
              .regex(/^[A-Za-z0-9-]+$/)
              .default('es-PE'),
          }),
        ),
        response: answers({ 200: z.string().describe('El CSV (text/csv)') }),
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const { locale, ...filters } = request.query;
      const stream = movementsCsv(app, currentUser(request), filters, locale);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${MOVEMENTS_CSV_FILENAME}"`)
        .header('cache-control', 'no-store')
        .send(stream as unknown as string); // the stream goes out as it is; the schema documents it
    },
  );
  app.get(
    '/payments/report/daily',
    {
      schema: {
        tags,
        summary: 'Totales del día por sucursal, usuario y método (pagados) y anulados',
        querystring: dayQuerySchema,
        response: answers({ 200: dailyReportSchema }),
      },
      preHandler: staff,
    },
    async (request) => dailyReport(app, currentUser(request), request.query.date),
  );

  app.get(
    '/payments/cash-sessions/current',
    {
      schema: {
        tags,
        summary: 'Mi caja abierta (o null) con lo esperado por método y sus movimientos',
        response: answers({ 200: currentCashSessionSchema }),
      },
      preHandler: staff,
    },
    async (request) => currentSession(app, currentUser(request)),
  );
  app.get(
    '/payments/cash-sessions',
    {
      schema: {
        tags,
        summary: 'Cajas abiertas en un día (administrador: todas las sucursales; agente: la suya)',
        querystring: dayQuerySchema,
        response: answers({ 200: cashSessionListSchema }),
      },
      preHandler: staff,
    },
    async (request) => sessionsOfDay(app, currentUser(request), request.query.date),
  );
  app.post(
    '/payments/cash-sessions',
    {
      schema: {
        tags,
        summary: 'Abrir mi caja con un fondo (409 si ya hay una abierta)',
        body: openCashSessionSchema,
        response: answers({ 201: cashSessionSchema }),
      },
      preHandler: staff,
    },
    async (request, reply) => reply.status(201).send(await openSession(app, currentUser(request), request.body.float)),
  );
  app.post(
    '/payments/cash-sessions/:id/close',
    {
      schema: {
        tags,
        summary:
          'Cerrar una caja con el efectivo contado (total o por denominación): esperado vs contado por método y diferencia. Cerrada no admite pagos.',
        params: idParams,
        body: closeCashSessionSchema,
        response: answers({ 200: cashSessionSchema }),
      },
      preHandler: staff,
    },
    async (request) => closeSession(app, currentUser(request), request.params.id, request.body),
  );
}
