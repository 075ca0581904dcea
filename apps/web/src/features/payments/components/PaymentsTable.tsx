import { useState } from 'react';
import { Badge, Button, Group, Modal, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { PAYMENT_MESSAGES, VOID_DEFAULT_REASON, type ManualPayment } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { useCancelPayment, useRetryPayment } from '../api/payments.ts';
import { ActionsTh } from '../../../components/ui/ActionsTh.tsx';

const STATUS_COLORS = { pending: 'yellow', paid: 'teal', canceled: 'gray' } as const;
/** Codes, amounts and chips stay on one line; the free text around them wraps instead (the 1024 tablet). */
const NOWRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** Today's manual payments, each with its receipt; void (reason required) and retry a pending one. */
export function PaymentsTable({
  rows,
  loading,
  onReceipt,
}: {
  rows: readonly ManualPayment[];
  loading: boolean;
  onReceipt(p: ManualPayment, format: 'a4' | 'ticket'): void;
}) {
  const [voiding, setVoiding] = useState<ManualPayment | null>(null);
  const [reason, setReason] = useState(VOID_DEFAULT_REASON);
  const cancel = useCancelPayment();
  const retry = useRetryPayment();

  const confirmVoid = () => {
    if (!voiding) return;
    if (reason.trim() === '') {
      notify.error(PAYMENT_MESSAGES.reason);
      return;
    }
    cancel.mutate(
      { id: voiding.id, motivo: reason.trim() },
      {
        onSuccess: () => {
          notify.success(`Pago de ${voiding.shipmentCode} anulado.`);
          setVoiding(null);
        },
        onError: (err) => notify.error(errorMessage(err, PAYMENT_MESSAGES.cancelFailed)),
      },
    );
  };

  return (
    <>
      <Paper withBorder style={{ overflowX: 'auto' }}>
        <Table verticalSpacing={6} horizontalSpacing={5} aria-label="Pagos de hoy">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Hora</Table.Th>
              <Table.Th>Envío</Table.Th>
              <Table.Th>Cliente</Table.Th>
              <Table.Th>Método</Table.Th>
              <Table.Th ta="right">Monto</Table.Th>
              <Table.Th>Estado</Table.Th>
              <Table.Th>Comprobante</Table.Th>
              <ActionsTh />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed" ta="center" py="md">
                    {loading ? 'Cargando…' : 'Sin registros.'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td {...NOWRAP}>{formatDateTime(p.received_at).slice(11)}</Table.Td>
                  <Table.Td ff="monospace" {...NOWRAP}>
                    {p.shipmentCode}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" className="user-text">
                      {p.customer_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {p.customerDocNumber}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.methodName}</Text>
                    {p.providerTxId && (
                      <Text size="xs" c="dimmed">
                        Op. {p.providerTxId}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace" {...NOWRAP}>
                    {formatMoney(p.amount)}
                  </Table.Td>
                  <Table.Td>
                    {/* The label's own ellipsis would let a narrow column cut it ('Pendi…'): it keeps its width. */}
                    <Badge variant="light" tt="none" color={STATUS_COLORS[p.status]} styles={{ label: { overflow: 'visible' } }}>
                      {p.statusLabel}
                    </Badge>
                    {p.status === 'pending' && p.lastError && (
                      <Text size="xs" c="red.9" maw={150}>
                        {p.lastError}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {p.documentId && p.documentNumber ? (
                      <Group gap={4} wrap="nowrap">
                        <Button size="compact-xs" variant="subtle" ff="monospace" onClick={() => onReceipt(p, 'ticket')}>
                          {p.documentNumber}
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="gray"
                          onClick={() => onReceipt(p, 'a4')}
                          aria-label={`PDF A4 de ${p.documentNumber}`}
                        >
                          A4
                        </Button>
                      </Group>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    {/* Side by side on the counter PC, one above the other when the tablet is short of room. */}
                    <Group gap={4} justify="flex-end">
                      {p.status === 'pending' && (
                        <Button
                          size="xs"
                          variant="light"
                          loading={retry.isPending && retry.variables === p.id}
                          onClick={() =>
                            retry.mutate(p.id, {
                              onSuccess: (r) => (r.ok ? notify.success('Pago confirmado.') : notify.error(r.error ?? PAYMENT_MESSAGES.createFailed)),
                              onError: (err) => notify.error(errorMessage(err, PAYMENT_MESSAGES.createFailed)),
                            })
                          }
                        >
                          Reintentar
                        </Button>
                      )}
                      {p.status !== 'canceled' && (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() => {
                            setReason(VOID_DEFAULT_REASON);
                            setVoiding(p);
                          }}
                        >
                          Anular
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Paper>
      <Modal opened={voiding !== null} onClose={() => setVoiding(null)} title={voiding ? `Anular el pago de ${voiding.shipmentCode}` : ''}>
        <Stack gap="sm">
          <Text size="sm">Se anula el pago y su comprobante ({voiding?.documentNumber ?? 'sin comprobante'}) ante SUNAT.</Text>
          <TextInput
            label="Motivo de la anulación"
            withAsterisk
            maxLength={100}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setVoiding(null)}>
              Cancelar
            </Button>
            <Button color="red" loading={cancel.isPending} onClick={confirmVoid}>
              Anular pago
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
