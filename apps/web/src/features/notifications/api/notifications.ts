import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Notification, NotificationChannel, NotificationStatus } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export interface NotificationListParams {
  status: NotificationStatus | null;
  channel: NotificationChannel | null;
  page: number;
  pageSize: number;
}

interface NotificationPage {
  items: Notification[];
  total: number;
  page: number;
  pageSize: number;
}

export const notificationsQuery = (p: NotificationListParams) =>
  queryOptions({
    queryKey: ['notifications', p],
    queryFn: ({ signal }) =>
      api.get<NotificationPage>(
        '/notifications',
        { status: p.status ?? undefined, channel: p.channel ?? undefined, page: p.page, pageSize: p.pageSize },
        signal,
      ),
    placeholderData: keepPreviousData,
    // The worker moves messages along: the screen follows without a reload.
    refetchInterval: 10_000,
  });
export const useNotifications = (p: NotificationListParams) => useQuery(notificationsQuery(p));

export function useResendNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<Notification>(`/notifications/${id}/resend`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
}
