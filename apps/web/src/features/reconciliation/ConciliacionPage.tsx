import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { centsToNumber, LEDGER_TABLE_LABELS, LEDGER_VALUE_LABELS, type LedgerCheckResult, type LedgerViolation } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { countOf, formatDateTime, formatMoney } from '../../lib/format.ts';
import { useReconciliation } from './api/reconciliation.ts';

function formatValue(key: string, value: LedgerViolation['values'][string]): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (key.endsWith('Cents') && typeof value === 'number') return formatMoney(centsToNumber(value));
  return String(value);
}

/** The record a violation concerns: a shipment links to its detail, the rest name table and id. */
function ViolationRecord({ v }: { v: LedgerViolation }) {
  const label = `${LEDGER_TABLE_LABELS[v.table] ?? v.table} ${v.id}`;
  const shipmentId = v.table === 'shipments' ? v.id : typeof v.values.shipmentId === 'number' ? String(v.values.shipmentId) : null;
  return (
    <>
      <Text size="sm">{label}</Text>
      {v.code &&
        (shipmentId ? (
          <Anchor component={Link} to={`/shipments/${shipmentId}`} size="sm">
            {v.code}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {v.code}
          </Text>
        ))}
    </>
  );
}

function CheckCard({ check }: { check: LedgerCheckResult }) {
  const ok = check.count === 0;
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Title order={2} size="h4">
            {check.name}
          </Title>
          <Text size="sm" c="dimmed">
            {check.description}
          </Text>
        </div>
        <Badge
          variant="light"
          color={ok ? 'teal' : 'red'}
          tt="none"
          radius="sm"
          size="lg"
          styles={{ label: { overflow: 'visible' } }}
          style={{ flexShrink: 0 }}
        >
          {ok ? 'OK' : countOf(check.count, 'violación', 'violaciones')}
        </Badge>
      </Group>
      {!ok && (
        <Table.ScrollContainer minWidth={700} mt="sm">
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={220}>Registro</Table.Th>
                <Table.Th>Valores que no cuadran</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {check.violations.map((v) => (
                <Table.Tr key={`${v.table}-${v.id}`}>
                  <Table.Td>
                    <ViolationRecord v={v} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="lg" wrap="wrap">
                      {Object.entries(v.values).map(([key, value]) => (
                        <Text size="sm" key={key}>
                          <Text span c="dimmed" size="sm">
                            {LEDGER_VALUE_LABELS[key] ?? key}:
                          </Text>{' '}
                          {formatValue(key, value)}
                        </Text>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {check.count > check.violations.length && (
            <Text size="sm" c="dimmed" mt="xs">
              Se muestran {check.violations.length} de {check.count}.
            </Text>
          )}
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

/**
 * Conciliación (issue 31, admins): the ledger check over the whole database, each rule with OK or
 * the records that break it. Checked when the page opens and again on 'Volver a revisar'.
 */
export default function ConciliacionPage() {
  const result = useReconciliation();
  return (
    <>
      <PageHeader
        title="Conciliación"
        description={
          result.data
            ? `Revisado el ${formatDateTime(result.data.checkedAt)}: pagos, comprobantes, cajas, cuentas por cobrar y notificaciones`
            : 'Pagos, comprobantes, cajas, cuentas por cobrar y notificaciones'
        }
      >
        <Button onClick={() => void result.refetch()} loading={result.isFetching}>
          Volver a revisar
        </Button>
      </PageHeader>
      {result.isPending ? (
        <Paper withBorder>
          <PageSkeleton rows={7} />
        </Paper>
      ) : result.isError ? (
        <Alert color="red" variant="light">
          {errorMessage(result.error, 'No se pudo revisar la conciliación.')}
        </Alert>
      ) : (
        <Stack gap="md">
          <Alert color={result.data.ok ? 'teal' : 'red'} variant="light">
            {result.data.ok
              ? `Todo cuadra: ${result.data.checks.length} comprobaciones sin violaciones.`
              : `${countOf(result.data.violations, 'violación', 'violaciones')} en ${countOf(
                  result.data.checks.filter((c) => c.count > 0).length,
                  'comprobación',
                  'comprobaciones',
                )}.`}
          </Alert>
          {result.data.checks.map((check) => (
            <CheckCard key={check.check} check={check} />
          ))}
        </Stack>
      )}
    </>
  );
}
