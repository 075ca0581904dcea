import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Driver } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

export const driversQuery = () =>
  queryOptions({
    queryKey: fleetKeys.drivers(),
    queryFn: ({ signal }) => api.get<Driver[]>('/drivers', undefined, signal),
  });

export const useDrivers = () => useQuery(driversQuery());
