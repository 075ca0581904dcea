import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CashSession,
  cashSessionListSchema,
  collectShipmentPageSchema,
  currentCashSessionSchema,
  dailyReportSchema,
  ManualPayment,
  manualPaymentPageSchema,
  ManualPaymentResult,
} from '@tramo/domain';
import { api, apiRequest } from '../../../lib/api.ts';

export type CollectShipment = z.infer<typeof collectShipmentPageSchema>['items'][number];
export type DailyReport = z.infer<typeof dailyReportSchema>;

export const paymentsKey = ['payments'] as const;

/** Spec section 9: the shipments to collect come in one page of 200 (status Creado, created today). */
const COLLECT_PAGE_SIZE = 200;

export const useShipmentsToCollect = () =>
  useQuery({
    queryKey: [...paymentsKey, 'to-collect'],
    queryFn: ({ signal }) => api.get<z.infer<typeof collectShipmentPageSchema>>('/payments/receivables', { pageSize: COLLECT_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });

/** 'Por cobrar en destino' (issue 33): pago en destino shipments at (or on their way to) the caller's branch. */
export const useShipmentsDueAtDestination = () =>
  useQuery({
    queryKey: [...paymentsKey, 'due-at-destination'],
    queryFn: ({ signal }) =>
      api.get<z.infer<typeof collectShipmentPageSchema>>('/payments/receivables/destination', { pageSize: COLLECT_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });

/**
 * One shipment as the counter collects it (the success card's and the detail's 'Cobrar', issue 38):
 * read from the list its payment moment puts it on, with the sender's document the payment modal
 * prefills. Newest first, so a shipment just registered is on the first page; read again on every
 * mount, since registering a shipment does not refresh the payments' queries.
 */
export const useShipmentToCollect = (shipment: { id: number; paymentMoment: string } | null) =>
  useQuery({
    queryKey: [...paymentsKey, shipment?.paymentMoment === 'destino' ? 'due-at-destination' : 'to-collect'],
    queryFn: ({ signal }) =>
      api.get<z.infer<typeof collectShipmentPageSchema>>(
        shipment?.paymentMoment === 'destino' ? '/payments/receivables/destination' : '/payments/receivables',
        { pageSize: COLLECT_PAGE_SIZE },
        signal,
      ),
    enabled: shipment !== null,
    refetchOnMount: 'always',
    select: (page) => page.items.find((s) => s.id === shipment?.id) ?? null,
  });

/** Spec section 9: today's payments come in pages of 200; a busier day goes on by cursor. */
export const TODAY_PAYMENTS_PAGE_SIZE = 200;

export const useTodayPayments = (at: { page: number; after?: string; before?: string } = { page: 1 }) =>
  useQuery({
    queryKey: [...paymentsKey, 'today', at],
    queryFn: ({ signal }) =>
      api.get<z.infer<typeof manualPaymentPageSchema>>('/payments/manual', { pageSize: TODAY_PAYMENTS_PAGE_SIZE, ...at }, signal),
    placeholderData: keepPreviousData,
  });

export const useCurrentCashSession = () =>
  useQuery({
    queryKey: [...paymentsKey, 'cash', 'current'],
    queryFn: ({ signal }) => api.get<z.infer<typeof currentCashSessionSchema>>('/payments/cash-sessions/current', undefined, signal),
  });

export const useDaySessions = (date: string) =>
  useQuery({
    queryKey: [...paymentsKey, 'cash', 'day', date],
    queryFn: ({ signal }) => api.get<z.infer<typeof cashSessionListSchema>>('/payments/cash-sessions', { date }, signal),
  });

export const useDailyReport = (date: string) =>
  useQuery({
    queryKey: [...paymentsKey, 'daily', date],
    queryFn: ({ signal }) => api.get<DailyReport>('/payments/report/daily', { date }, signal),
  });

/** Everything on /pagos moves together after a payment, a void, a retry or a closing. */
function useInvalidatePayments() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: paymentsKey });
    // A receipt was issued or voided: the documents register too.
    void client.invalidateQueries({ queryKey: ['billing'] });
  };
}

export interface PaymentInput {
  shipmentId: number;
  customerId: number | null;
  customerName: string;
  customerDocType: 1 | 6;
  customerDocNumber: string;
  amount: string;
  currency: string;
  methodCode: string;
  providerTxId: string | null;
}

/** 201 paid, 202 pending (the receipt failed: `error`, and a retry confirms); a refusal throws with the server's message. */
async function sendPayment(path: string, body?: unknown): Promise<ManualPaymentResult> {
  const { data } = await apiRequest<ManualPaymentResult>(path, { method: 'POST', body: body ?? {} });
  return data;
}

export function useRegisterPayment() {
  const invalidate = useInvalidatePayments();
  return useMutation({ mutationFn: (input: PaymentInput) => sendPayment('/payments/manual', input), onSettled: invalidate });
}

export function useRetryPayment() {
  const invalidate = useInvalidatePayments();
  return useMutation({ mutationFn: (id: number) => sendPayment(`/payments/manual/${id}/confirm`), onSettled: invalidate });
}

export function useCancelPayment() {
  const invalidate = useInvalidatePayments();
  return useMutation({
    mutationFn: (input: { id: number; motivo: string }) => api.post<ManualPayment>(`/payments/manual/${input.id}/cancel`, { motivo: input.motivo }),
    onSettled: invalidate,
  });
}

export function useOpenCashSession() {
  const invalidate = useInvalidatePayments();
  return useMutation({ mutationFn: (float: string) => api.post<CashSession>('/payments/cash-sessions', { float }), onSettled: invalidate });
}

export interface CloseInput {
  id: number;
  countedCash?: string;
  denominations?: { value: string; quantity: number }[];
  countedByMethod?: Record<string, string>;
}

export function useCloseCashSession() {
  const invalidate = useInvalidatePayments();
  return useMutation({
    mutationFn: ({ id, ...body }: CloseInput) => api.post<CashSession>(`/payments/cash-sessions/${id}/close`, body),
    onSettled: invalidate,
  });
}
