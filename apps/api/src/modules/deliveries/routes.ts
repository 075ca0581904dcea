import { z } from 'zod';
import { answers, deliveryAgentSchema, deliveryParamsSchema, deliverySchema, shipmentSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { deliverShipment, listDeliveryAgents } from './service.ts';

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
}
