import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, Table, Tabs, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { canManageArea } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { TableSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { countOf, formatDateTime, formatMoney } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useUrlState } from '../../lib/url-state.ts';
import { AgeingView } from '../credit/index.ts';
import { useReceivables, type ReceivableRow } from './api/receivables.ts';
import { DestinationBalances } from './components/DestinationBalances.tsx';

const LOAD_FAILED = 'No se pudo cargar.';
/** Where a customer's open shipments are billed: the register's 'Facturar envíos', opened for that customer. */
const billShipments = (customerId: number) => `/billing/preview?tab=comprobantes&facturar=${customerId}`;

/**
 * /cuentas-por-cobrar: per sender customer, the shipments not Anulado without a paid payment, their
 * balance and the last one; a search by name or document (Enter or 'Buscar'). A registered
 * customer's row leads to billing those shipments. Pago en destino is not the sender's to pay: it
 * has its own balance per destination branch below (issue 33). Admins also see the credit
 * accounts' ageing ('Antigüedad de saldos', issue 35), its totals per branch and 'Sobre su límite'.
 */
export default function CuentasPorCobrarPage() {
  const navigate = useNavigate();
  const seesCredit = canManageArea(useCurrentUser(), 'credit');
  const [url, setUrl] = useUrlState({ q: '', vista: 'saldos' }, { replace: true });
  const ageing = seesCredit && url.vista === 'antiguedad';
  const [text, setText] = useState(url.q);
  const list = useReceivables(url.q);
  const data = list.data;
  const search = () => setUrl({ q: text.trim() });
  const open = (row: ReceivableRow) => {
    if (row.customer_id !== null) void navigate(billShipments(row.customer_id));
  };

  return (
    <>
      <PageHeader
        title="Cuentas por cobrar"
        description={
          ageing
            ? 'Facturas al crédito por vencer y vencidas, por cliente y por sucursal'
            : data
              ? `${countOf(data.total, 'cliente')} con saldo pendiente`
              : 'Saldos pendientes por cliente remitente'
        }
      >
        {!ageing && (
          <Group
            gap="xs"
            component="form"
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              search();
            }}
          >
            <TextInput
              type="search"
              aria-label="Buscar cliente"
              placeholder="Cliente: nombre o DNI/RUC"
              w={260}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
            />
            <Button type="submit" leftSection={<IconSearch size={16} />}>
              Buscar
            </Button>
          </Group>
        )}
      </PageHeader>
      {seesCredit && (
        <Tabs value={url.vista} onChange={(v) => setUrl({ vista: v })} mb="md">
          <Tabs.List>
            <Tabs.Tab value="saldos">Saldos por cliente</Tabs.Tab>
            <Tabs.Tab value="antiguedad">Antigüedad de saldos</Tabs.Tab>
          </Tabs.List>
        </Tabs>
      )}
      {ageing ? <AgeingView /> : <Balances list={list} onOpen={open} />}
    </>
  );
}

/** The spec's table: customer, shipments, balance, last shipment; then pago en destino per branch. */
function Balances({ list, onOpen: open }: { list: ReturnType<typeof useReceivables>; onOpen(row: ReceivableRow): void }) {
  const data = list.data;
  return (
    <>
      {list.isError && (
        <Alert color="red" variant="light" mb="sm" role="alert">
          {errorMessage(list.error, LOAD_FAILED)}
        </Alert>
      )}
      {data && (
        <Paper withBorder p="xs" mb="sm" maw={320} aria-label="Total por cobrar" role="region">
          <Text size="xs" c="dimmed">
            Total por cobrar
          </Text>
          <Text fw={700} ff="monospace" size="lg">
            {formatMoney(data.totalOpen)}
          </Text>
        </Paper>
      )}
      <Paper withBorder style={{ overflowX: 'auto' }}>
        <Table highlightOnHover verticalSpacing={6} style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Cliente</Table.Th>
              <Table.Th ta="right">Envíos</Table.Th>
              <Table.Th ta="right">Saldo</Table.Th>
              <Table.Th>Último envío</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending ? (
              <TableSkeleton cols={4} />
            ) : (data?.items.length ?? 0) === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text c="dimmed" ta="center" py="md">
                    {list.isError ? LOAD_FAILED : 'No hay saldos pendientes'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              data?.items.map((r) => (
                <Table.Tr
                  key={r.customer_key}
                  style={r.customer_id !== null ? { cursor: 'pointer' } : undefined}
                  onClick={() => open(r)}
                  title={r.customer_id !== null ? 'Facturar los envíos de este cliente' : undefined}
                >
                  <Table.Td>
                    {r.customer_id !== null ? (
                      <Anchor
                        component={Link}
                        to={billShipments(r.customer_id)}
                        size="sm"
                        onClick={(e) => e.stopPropagation()}
                        title="Facturar los envíos de este cliente"
                      >
                        {r.customer_name}
                      </Anchor>
                    ) : (
                      <Text size="sm" className="user-text">
                        {r.customer_name}
                      </Text>
                    )}
                    {r.customer_doc && (
                      <Text size="xs" c="dimmed">
                        {r.customer_doc}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{r.shipments_count}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatMoney(r.open_amount)}
                  </Table.Td>
                  <Table.Td>{formatDateTime(r.last_shipment_at)}</Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Paper>
      <DestinationBalances />
    </>
  );
}
