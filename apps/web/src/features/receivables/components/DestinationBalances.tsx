import { Alert, Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { WHO_PAYS_MONEY_MESSAGES } from '@tramo/domain';
import { TableSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useDestinationReceivables } from '../api/receivables.ts';

/**
 * Cuentas por cobrar → 'Por cobrar en destino' (issue 33): per destination branch, the pago en
 * destino freight not yet collected (registered, on the road or waiting), and how much of it waits
 * at the agency now, which /pagos collects. An agent sees her branch.
 */
export function DestinationBalances() {
  const list = useDestinationReceivables();
  const data = list.data;
  return (
    <Paper withBorder p="md" mt="md" role="region" aria-labelledby="por-cobrar-destino">
      <Title order={2} size="h4" id="por-cobrar-destino">
        {WHO_PAYS_MONEY_MESSAGES.destinationDue}
      </Title>
      <Text size="sm" c="dark.4" mb="xs">
        Fletes con pago en destino aún sin cobrar, por sucursal de destino. Los cobra esa sucursal en{' '}
        <Anchor component={Link} to="/pagos" size="sm" underline="always">
          Pagos
        </Anchor>{' '}
        cuando el envío llega.
      </Text>
      {list.isError && (
        <Alert color="red" variant="light" mb="sm" role="alert">
          {errorMessage(list.error, 'No se pudo cargar.')}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing={6} aria-label={WHO_PAYS_MONEY_MESSAGES.destinationDue}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Sucursal de destino</Table.Th>
              <Table.Th ta="right">Envíos</Table.Th>
              <Table.Th ta="right">Saldo</Table.Th>
              <Table.Th ta="right">En agencia</Table.Th>
              <Table.Th ta="right">Saldo en agencia</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending ? (
              <TableSkeleton cols={5} />
            ) : (data?.items.length ?? 0) === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text c="dimmed" ta="center" py="md">
                    {list.isError ? 'No se pudo cargar.' : 'Nada por cobrar en destino'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              data?.items.map((r) => (
                <Table.Tr key={r.branchId}>
                  <Table.Td>{r.branchName}</Table.Td>
                  <Table.Td ta="right">{r.shipmentsCount}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatMoney(r.openAmount)}
                  </Table.Td>
                  <Table.Td ta="right">{r.waitingCount}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatMoney(r.waitingAmount)}
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
          {data && data.items.length > 1 && (
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>Total</Table.Th>
                <Table.Th ta="right">{data.shipmentsCount}</Table.Th>
                <Table.Th ta="right" ff="monospace">
                  {formatMoney(data.totalOpen)}
                </Table.Th>
                <Table.Th />
                <Table.Th />
              </Table.Tr>
            </Table.Tfoot>
          )}
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
