import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { CashSession } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { useCurrentCashSession, useOpenCashSession } from '../api/payments.ts';
import { CloseCashModal } from './CloseCashModal.tsx';

/** Expected vs counted per method of a session (live while open, as closed once closed). */
export function ClosingTable({ session }: { session: CashSession }) {
  const c = session.closing;
  const closed = session.status === 'closed';
  return (
    <Table withTableBorder verticalSpacing={4} fz="sm" captionSide="bottom">
      {/* The reports' one rule: a voided payment is not among 'Pagos' (its reversal is in 'Esperado'); it is counted here. */}
      {/* Issue 33: pago en destino collected in this session, shown apart (already among 'Pagos' above). */}
      {(c.voided.count > 0 || session.destination.count > 0) && (
        <Table.Caption ta="left">
          {session.destination.count > 0 && (
            <span data-testid="cash-destination">
              Cobrado en destino · {session.destination.count} · {formatMoney(session.destination.amount)} (incluido en los pagos)
            </span>
          )}
          {session.destination.count > 0 && c.voided.count > 0 && <br />}
          {c.voided.count > 0 && (
            <span>
              Anulados · {c.voided.count} · {formatMoney(c.voided.amount)}
            </span>
          )}
        </Table.Caption>
      )}
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Método</Table.Th>
          <Table.Th ta="right">Pagos</Table.Th>
          <Table.Th ta="right">Esperado</Table.Th>
          {closed && <Table.Th ta="right">Contado</Table.Th>}
          {closed && <Table.Th ta="right">Diferencia</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {c.lines.map((l) => (
          <Table.Tr key={l.methodCode}>
            <Table.Td>{l.methodName}</Table.Td>
            <Table.Td ta="right">{l.count}</Table.Td>
            <Table.Td ta="right">{formatMoney(l.expected)}</Table.Td>
            {closed && <Table.Td ta="right">{formatMoney(l.counted)}</Table.Td>}
            {closed && (
              <Table.Td ta="right" c={l.difference === 0 ? undefined : l.difference < 0 ? 'red.8' : 'orange.8'}>
                {formatMoney(l.difference)}
              </Table.Td>
            )}
          </Table.Tr>
        ))}
        <Table.Tr fw={700}>
          <Table.Td>Total (fondo {formatMoney(c.float)} incluido)</Table.Td>
          <Table.Td />
          <Table.Td ta="right">{formatMoney(c.expected)}</Table.Td>
          {closed && <Table.Td ta="right">{formatMoney(c.counted)}</Table.Td>}
          {closed && (
            <Table.Td ta="right" c={c.difference === 0 ? undefined : 'red.8'}>
              {formatMoney(c.difference)}
            </Table.Td>
          )}
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/**
 * 'Mi caja': the collector's cash session. Open it with a float; every payment taken goes into it;
 * close it with the cash counted and see expected vs counted per method and the difference.
 */
export function CashSessionPanel() {
  const current = useCurrentCashSession();
  const open = useOpenCashSession();
  const [float, setFloat] = useState('0.00');
  const [closing, setClosing] = useState(false);
  const [closed, setClosed] = useState<CashSession | null>(null);
  const session = current.data?.session ?? null;

  if (current.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(current.error)}
      </Alert>
    );
  return (
    <Stack gap="md">
      {closed && (
        <Paper withBorder p="md" className="print-area">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">
              Caja cerrada · {formatDateTime(closed.closedAt)}
            </Title>
            <Group className="no-print">
              <Button variant="default" onClick={() => window.print()}>
                Imprimir cierre
              </Button>
              <Button variant="subtle" onClick={() => setClosed(null)}>
                Ocultar
              </Button>
            </Group>
          </Group>
          <Text size="sm" mb="xs">
            {closed.userName} · {closed.branchName ?? '—'} · abierta {formatDateTime(closed.openedAt)}
          </Text>
          <ClosingTable session={closed} />
        </Paper>
      )}
      <Paper withBorder p="md">
        {session ? (
          <Stack gap="sm">
            <Group justify="space-between">
              <Group gap="sm">
                <Title order={2} size="h4">
                  Mi caja
                </Title>
                <Badge color="teal" variant="light" tt="none">
                  Abierta
                </Badge>
              </Group>
              <Button color="orange" onClick={() => setClosing(true)}>
                Cerrar caja
              </Button>
            </Group>
            <Text size="sm" c="dimmed">
              Abierta el {formatDateTime(session.openedAt)} con un fondo de {formatMoney(session.float)} · {session.branchName ?? '—'}
            </Text>
            <ClosingTable session={session} />
          </Stack>
        ) : (
          <Stack gap="sm">
            <Title order={2} size="h4">
              Mi caja
            </Title>
            <Text size="sm">
              No tienes una caja abierta. Ábrela con el fondo (sencillo) que tienes en el cajón; si cobras sin abrirla, se abre con S/ 0.00.
            </Text>
            <Group align="flex-end">
              <TextInput label="Fondo inicial" inputMode="decimal" w={160} value={float} onChange={(e) => setFloat(e.currentTarget.value)} />
              <Button
                loading={open.isPending}
                onClick={() =>
                  open.mutate(float.trim(), {
                    onSuccess: () => notify.success('Caja abierta.'),
                    onError: (err) => notify.error(err),
                  })
                }
              >
                Abrir caja
              </Button>
            </Group>
          </Stack>
        )}
      </Paper>
      {session && (
        <CloseCashModal
          session={closing ? session : null}
          onClose={() => setClosing(false)}
          onClosed={(s) => {
            setClosing(false);
            setClosed(s);
          }}
        />
      )}
    </Stack>
  );
}
