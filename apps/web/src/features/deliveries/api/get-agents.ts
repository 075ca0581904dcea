import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeliveryAgent } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export const deliveryAgentsQuery = () =>
  queryOptions({
    queryKey: ['deliveries', 'agents'] as const,
    queryFn: ({ signal }) => api.get<DeliveryAgent[]>('/deliveries/agents', undefined, signal),
  });

/** Agents and couriers offered as 'Entregado por'. */
export const useDeliveryAgents = () => useQuery(deliveryAgentsQuery());
