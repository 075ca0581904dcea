import { z } from 'zod';
import {
  answers,
  documentDetailSchema,
  documentFiltersSchema,
  documentPageSchema,
  invoicePayloadSchema,
  issueResultSchema,
  keysetChecks,
  keysetCursorFields,
  receiptRequestSchema,
  recordId,
  salesRegisterCsvName,
  salesRegisterPageQuerySchema,
  salesRegisterQuerySchema,
  salesRegisterSchema,
  unbilledShipmentSchema,
  voidRequestSchema,
  voidStatusSchema,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams, pagingQuery } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { issueReceipt } from './counter-receipt.ts';
import creditableRoutes from './creditable.ts';
import { createAndEmit } from './issuing.ts';
import { voidDocument, voidStatus } from './lifecycle.ts';
import { salesRegister, salesRegisterCsvFile, salesRegisterPle } from './sales-register.ts';
import { documentPdf, documentXml, listDocuments, lookupDocument, unbilledShipments, voidSummaryXml } from './rendering.ts';

/** Create/emit answers carry the issue result even when refused (422) or when the provider failed (424). */
/** The register's page when the query names none. */
const DOCUMENT_PAGE_SIZE = 25;
/** The Registro de Ventas' page when the query names none. */
const SALES_REGISTER_PAGE_SIZE = 100;

const issueAnswers = {
  ...answers({ 200: issueResultSchema, 201: issueResultSchema, 202: issueResultSchema }),
  422: issueResultSchema,
  424: issueResultSchema,
};
const createEmitBody = invoicePayloadSchema.and(
  z.object({ shipmentIds: z.array(recordId()).max(200, 'Máximo 200 envíos por comprobante').optional() }),
);

export default async function billingRoutes(app: App) {
  const tags = ['billing'];
  // DESIGN.md section 5a: billing is for admins and agents; agents act on their branch's documents.
  const staff = guard(app, { roles: ['admin', 'agent'] });
  await app.register(creditableRoutes);

  app.post(
    '/billing/create-emit',
    {
      schema: {
        tags,
        summary:
          'Emitir factura, boleta o nota de crédito (201 emitido; 200 misma codigo_unico ya emitida; 202 pendiente porque el proveedor no respondió; 422 con problems bajo "Corrige:"; 424 el proveedor falló)',
        body: createEmitBody,
        response: issueAnswers,
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const { shipmentIds, ...payload } = request.body;
      const answer = await createAndEmit(app, currentUser(request), payload, shipmentIds ?? []);
      return reply.status(answer.statusCode).send(answer.result);
    },
  );
  app.post(
    '/billing/emit',
    {
      schema: {
        tags,
        summary: 'Emitir el comprobante de un pago (boleta para DNI, factura para RUC; ítem "Servicio de envío")',
        body: receiptRequestSchema,
        response: issueAnswers,
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const answer = await issueReceipt(app, currentUser(request), request.body);
      return reply.status(answer.statusCode).send(answer.result);
    },
  );
  app.get(
    '/billing/lookup/:id',
    {
      schema: {
        tags,
        summary: 'Ver un comprobante (si está pendiente, lo consulta al proveedor)',
        params: idParams,
        response: answers({ 200: documentDetailSchema }),
      },
      preHandler: staff,
    },
    async (request) => lookupDocument(app, currentUser(request), request.params.id),
  );
  app.post(
    '/billing/void',
    {
      schema: {
        tags,
        summary: 'Anular un comprobante aceptado (motivo obligatorio; 409 si ya está anulado o su anulación está pendiente)',
        body: voidRequestSchema,
        response: answers({ 200: voidStatusSchema }),
      },
      preHandler: staff,
    },
    async (request) => voidDocument(app, currentUser(request), request.body.id, request.body.motivo),
  );
  app.get(
    '/billing/void-status/:id',
    {
      schema: { tags, summary: 'Estado de la anulación de un comprobante', params: idParams, response: answers({ 200: voidStatusSchema }) },
      preHandler: staff,
    },
    async (request) => voidStatus(app, currentUser(request), request.params.id),
  );
  app.get(
    '/billing/documents',
    {
      schema: {
        tags,
        summary: 'Registro de comprobantes (filtros, paginado, totales del conjunto filtrado sin anulados)',
        querystring: documentFiltersSchema
          .extend(pagingQuery.shape)
          .extend(keysetCursorFields)
          .refine(keysetChecks.oneCursor.check, keysetChecks.oneCursor.params)
          .refine(keysetChecks.numbered(DOCUMENT_PAGE_SIZE).check, keysetChecks.numbered(DOCUMENT_PAGE_SIZE).params),
        response: answers({ 200: documentPageSchema }),
      },
      preHandler: staff,
    },
    async (request) => {
      const { page = 1, pageSize = DOCUMENT_PAGE_SIZE, after, before, ...filters } = request.query;
      return listDocuments(app, currentUser(request), filters, { page, pageSize, after, before });
    },
  );
  app.get(
    '/billing/documents/:id/pdf',
    {
      schema: {
        tags,
        summary: 'PDF del comprobante (A4 o ticket de 80 mm)',
        params: idParams,
        querystring: z.object({ format: z.enum(['a4', 'ticket']).default('a4') }),
        response: answers({ 200: z.string().describe('El PDF (application/pdf)') }),
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const { pdf, filename } = await documentPdf(app, currentUser(request), request.params.id, request.query.format);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${filename}"`)
        .send(pdf as unknown as string); // bytes go out as they are; the schema documents them
    },
  );
  app.get(
    '/billing/documents/:id/xml',
    {
      schema: {
        tags,
        summary: 'XML UBL 2.1 firmado del comprobante',
        params: idParams,
        response: answers({ 200: z.string().describe('El XML (application/xml)') }),
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const { xml, filename } = await documentXml(app, currentUser(request), request.params.id);
      return reply.type('application/xml; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(xml);
    },
  );
  app.get(
    '/billing/documents/:id/void-xml',
    {
      schema: {
        tags,
        summary: 'XML UBL 2.0 firmado de la comunicación de baja (RA) o del resumen diario (RC) que anuló el comprobante',
        params: idParams,
        response: answers({ 200: z.string().describe('El XML (application/xml)') }),
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const { xml, filename } = await voidSummaryXml(app, currentUser(request), request.params.id);
      return reply.type('application/xml; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(xml);
    },
  );
  // The Registro de Ventas is the accountant's monthly book of the whole company: administrators only.
  const admin = guard(app, { roles: ['admin'] });
  app.get(
    '/billing/registro-ventas',
    {
      schema: {
        tags,
        summary:
          'Registro de Ventas e Ingresos del mes (PLE 14.1): facturas, boletas y notas de crédito, paginado (100 por defecto), con los totales del mes cuadrados con el registro',
        querystring: salesRegisterPageQuerySchema,
        response: answers({ 200: salesRegisterSchema }),
      },
      preHandler: admin,
    },
    async (request) => salesRegister(app, request.query.mes, request.query.page ?? 1, request.query.pageSize ?? SALES_REGISTER_PAGE_SIZE),
  );
  app.get(
    '/billing/registro-ventas.txt',
    {
      schema: {
        tags,
        summary: 'Archivo PLE 14.1 del mes (LE<RUC><AAAAMM>00140100001<1|0>11.txt, campos separados por |)',
        querystring: salesRegisterQuerySchema,
        response: answers({ 200: z.string().describe('El archivo de texto (text/plain)') }),
      },
      preHandler: admin,
    },
    async (request, reply) => {
      const { text, filename } = await salesRegisterPle(app, request.query.mes);
      return reply.type('text/plain; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(text);
    },
  );
  app.get(
    '/billing/registro-ventas.csv',
    {
      schema: {
        tags,
        summary: "CSV del Registro de Ventas del mes para Excel: BOM, línea sep=, separador ';' si la configuración regional usa coma decimal",
        querystring: salesRegisterQuerySchema.extend({
          locale: z
            .string()
            .max(35)
            .regex(/^[A-Za-z0-9-]+$/)
            .default('es-PE'),
        }),
        response: answers({ 200: z.string().describe('El CSV (text/csv)') }),
      },
      preHandler: admin,
    },
    async (request, reply) => {
      const csv = await salesRegisterCsvFile(app, request.query.mes, request.query.locale);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${salesRegisterCsvName(request.query.mes)}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
  app.get(
    '/billing/unbilled-shipments',
    {
      schema: {
        tags,
        summary: 'Envíos de un cliente remitente sin comprobante vigente (no anulados)',
        querystring: z.object({ customerId: recordId() }),
        response: answers({ 200: z.array(unbilledShipmentSchema) }),
      },
      preHandler: staff,
    },
    async (request) => unbilledShipments(app, currentUser(request), request.query.customerId),
  );
}
