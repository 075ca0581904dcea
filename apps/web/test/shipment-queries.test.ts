import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Shipment } from '@tramo/domain';
import { dashboardKey, shipmentKeys, shipmentsChanged } from '../src/lib/shipment-queries.ts';

const shipment = { id: 7, code: 'TMT-000007', status: 'Entregado' } as Shipment;
const stale = { id: 7, code: 'TMT-000007', status: 'En tránsito' } as Shipment;

/** A cache as the screens leave it: a list, a search, the Panel, and the shipment read three ways. */
function filledCache() {
  const queryClient = new QueryClient();
  const keys = {
    list: [...shipmentKeys.lists(), { page: 1 }],
    search: shipmentKeys.search('quispe'),
    dashboard: [...dashboardKey, {}],
    byId: shipmentKeys.detail(7),
    byCode: shipmentKeys.byCode('tmt-000007'),
    other: shipmentKeys.detail(8),
  };
  for (const key of Object.values(keys)) queryClient.setQueryData(key, key === keys.byId || key === keys.byCode ? stale : []);
  const state = (key: readonly unknown[]) => queryClient.getQueryState(key)!;
  return { queryClient, keys, state };
}

describe('shipmentsChanged', () => {
  it('shows the answer at once under every key the shipment is read by and refreshes everything else', () => {
    const { queryClient, keys, state } = filledCache();
    shipmentsChanged(queryClient, shipment);

    expect(queryClient.getQueryData(keys.byId)).toEqual(shipment);
    // Tracking and deliveries read it by code, whatever case the code was typed in.
    expect(queryClient.getQueryData(keys.byCode)).toEqual(shipment);
    expect(queryClient.getQueryData(shipmentKeys.detail('TMT-000007'))).toEqual(shipment);
    expect(state(keys.byId).isInvalidated).toBe(false);
    expect(state(keys.byCode).isInvalidated).toBe(false);
    for (const key of [keys.list, keys.search, keys.dashboard, keys.other]) expect(state(key).isInvalidated).toBe(true);
  });

  it('without an answer (a load onto a transport) refreshes every shipment query and the Panel', () => {
    const { queryClient, keys, state } = filledCache();
    shipmentsChanged(queryClient);
    for (const key of Object.values(keys)) expect(state(key).isInvalidated).toBe(true);
    expect(queryClient.getQueryData(keys.byId)).toEqual(stale);
  });
});
