import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { limaDay, dayText } from '@tramo/domain';
import { DateField } from '../../../components/ui/DateField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { useDailyReport, useDaySessions } from '../api/payments.ts';
import { ClosingTable } from './CashSessionPanel.tsx';

/**
 * 'Cajas del día': every cash session of a day (admins: all branches; agents: theirs) with its closing,
 * and the day's totals per branch, user and method; printed as the closing report.
 */
export function DaySessions() {
  const [date, setDate] = useState(() => limaDay(new Date()));
  const sessions = useDaySessions(date);
  const report = useDailyReport(date);
  const error = sessions.error ?? report.error;
  return (
    <Stack gap="md" className="print-area">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <DateField label="Día" value={date} clearable={false} onChange={(d) => d && setDate(d)} />
          <Title order={2} size="h4">
            Reporte de cierre del {dayText(date)}
          </Title>
        </Group>
        <Button variant="default" className="no-print" onClick={() => window.print()}>
          Imprimir reporte
        </Button>
      </Group>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {report.data && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          <Paper withBorder p="xs">
            <Text size="xs" c="dimmed">
              Cobrado
            </Text>
            <Text fw={700} ff="monospace">
              {formatMoney(report.data.total)}
            </Text>
          </Paper>
          {report.data.byMethod.map((m) => (
            <Paper withBorder p="xs" key={m.methodCode}>
              <Text size="xs" c="dimmed">
                {m.methodName} · {m.count}
              </Text>
              <Text ff="monospace">{formatMoney(m.amount)}</Text>
            </Paper>
          ))}
          <Paper withBorder p="xs">
            <Text size="xs" c="dimmed">
              Anulados · {report.data.canceled.count}
            </Text>
            <Text ff="monospace">{formatMoney(report.data.canceled.amount)}</Text>
          </Paper>
        </SimpleGrid>
      )}
      {report.data && report.data.rows.length > 0 && (
        <Paper withBorder style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Totales del día">
          <Table verticalSpacing={4} fz="sm" aria-label="Totales por sucursal, usuario y método">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Sucursal</Table.Th>
                <Table.Th>Usuario</Table.Th>
                <Table.Th>Método</Table.Th>
                <Table.Th ta="right">Pagos</Table.Th>
                <Table.Th ta="right">Monto</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.data.rows.map((r) => (
                <Table.Tr key={`${r.branchId}-${r.userId}-${r.methodCode}`}>
                  <Table.Td>{r.branchName ?? '—'}</Table.Td>
                  <Table.Td>{r.userName}</Table.Td>
                  <Table.Td>{r.methodName}</Table.Td>
                  <Table.Td ta="right">{r.count}</Table.Td>
                  <Table.Td ta="right">{formatMoney(r.amount)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {sessions.data?.items.length === 0 && <Text c="dimmed">Sin cajas abiertas este día.</Text>}
      {sessions.data?.items.map((s) => (
        <Paper withBorder p="md" key={s.id}>
          <Group justify="space-between" mb="xs">
            <Text fw={600}>
              {s.userName} · {s.branchName ?? '—'}
            </Text>
            <Badge variant="light" tt="none" color={s.status === 'open' ? 'teal' : 'gray'}>
              {s.status === 'open' ? 'Abierta' : `Cerrada ${formatDateTime(s.closedAt).slice(11)}`}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" mb="xs">
            Abierta {formatDateTime(s.openedAt)} · fondo {formatMoney(s.float)}
            {s.movements.some((m) => m.adjustment) ? ' · incluye ajustes por anulaciones de cajas anteriores' : ''}
          </Text>
          <ClosingTable session={s} />
        </Paper>
      ))}
    </Stack>
  );
}
