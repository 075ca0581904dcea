import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Incident, IncidentInput } from '@tramo/domain';
import { api } from '../../lib/api.ts';
import { shipmentsChanged } from '../../lib/shipment-queries.ts';

const keys = { shipment: (id: number) => ['incidents', 'shipment', id] as const };

export const useShipmentIncidents = (shipmentId: number) =>
  useQuery({
    queryKey: keys.shipment(shipmentId),
    queryFn: ({ signal }) => api.get<Incident[]>(`/shipments/${shipmentId}/incidents`, undefined, signal),
  });

/** After a change: the incident lists and counters, and the shipment (its history shows the incident). */
function useChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['incidents'] });
    shipmentsChanged(queryClient);
  };
}

export function useCreateIncident() {
  const changed = useChanged();
  return useMutation({
    mutationFn: ({ shipmentId, input }: { shipmentId: number; input: IncidentInput }) =>
      api.post<Incident>(`/shipments/${shipmentId}/incidents`, input),
    onSuccess: changed,
  });
}

export function useCloseIncident() {
  const changed = useChanged();
  return useMutation({ mutationFn: (id: number) => api.post<Incident>(`/incidents/${id}/close`, {}), onSuccess: changed });
}
