import { z } from 'zod';
import {
  answers,
  deliveryAgentSchema,
  deliveryParamsSchema,
  deliveryProofSchema,
  deliverySchema,
  deliverySettingsSchema,
  shipmentSchema,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { deliverShipment, listDeliveryAgents } from './service.ts';
import { getDeliverySettings, getProof, loadProof, updateDeliverySettings } from './proof.ts';
import { renderProofPdf } from './pod-pdf.ts';

/** A photo (1 MB) and a signature (200 KB) as base64, with room for the rest of the form. */
const DELIVERY_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * Deliveries (issue #6). The shipment lookup for the screen is the shipments module's
 * GET /shipments/code/{code} and GET /shipments/search; nothing is duplicated here.
 */
export default async function deliveryRoutes(app: App) {
  const tags = ['deliveries'];
  // Every role reaches the screen; the branch rule (admin or destination branch) is the service's.
  const staff = guard(app, { roles: ['admin', 'agent', 'courier'] });

  app.post(
    '/shipments/:id/deliver',
    {
      schema: {
        tags,
        response: answers({ 200: shipmentSchema }),
        summary:
          'Confirmar entrega con la clave secreta (admin o sucursal de destino; solo desde Creado o En tránsito; 5 claves erradas bloquean 15 min con 429). Devuelve el envío.',
        params: deliveryParamsSchema,
        body: deliverySchema,
      },
      preHandler: staff,
      bodyLimit: DELIVERY_BODY_LIMIT,
    },
    async (request) => deliverShipment(app, currentUser(request), request.params.id, request.body),
  );
  app.get(
    '/deliveries/agents',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(deliveryAgentSchema) }),
        summary:
          "Personal para 'Entregado por': usuarios con rol agente o repartidor, ordenados por usuario (id, username, name, role, branchId, branchName)",
      },
      preHandler: staff,
    },
    async () => listDeliveryAgents(app),
  );

  app.get(
    '/deliveries/settings',
    {
      schema: {
        tags,
        response: answers({ 200: deliverySettingsSchema }),
        summary: "Si 'Confirmar entrega' exige foto y firma (configuración de la empresa)",
      },
      preHandler: staff,
    },
    async () => getDeliverySettings(app),
  );
  app.put(
    '/deliveries/settings',
    {
      schema: {
        tags,
        body: deliverySettingsSchema,
        response: answers({ 200: deliverySettingsSchema }),
        summary: 'Exigir (o no) foto y firma al confirmar una entrega (solo administrador; auditado)',
      },
      preHandler: guard(app, { roles: ['admin'] }),
    },
    async (request) => updateDeliverySettings(app, currentUser(request), request.body),
  );
  app.get(
    '/shipments/:id/proof',
    {
      schema: {
        tags,
        params: deliveryParamsSchema,
        response: answers({ 200: deliveryProofSchema }),
        summary: 'Foto y firma de la entrega como data URL (personal de la sucursal de origen o destino, o administrador)',
      },
      preHandler: staff,
    },
    async (request) => getProof(app, currentUser(request), request.params.id),
  );
  app.get(
    '/shipments/:id/proof.pdf',
    {
      schema: {
        tags,
        params: deliveryParamsSchema,
        response: answers({ 200: z.string().describe('La constancia de entrega en PDF (application/pdf)') }),
        summary: 'Constancia de entrega (PDF) con foto y firma (personal de la sucursal de origen o destino, o administrador)',
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const proof = await loadProof(app, currentUser(request), request.params.id);
      const pdf = await renderProofPdf(proof, 'staff');
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="constancia-${proof.shipment.code}.pdf"`)
        .header('Cache-Control', 'no-store')
        .send(pdf as unknown as string); // bytes go out as they are; the schema documents them
    },
  );
}
