import { useState } from 'react';
import { Alert, Badge, Button, Group, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { dayText, PERIOD_INVOICE_MESSAGES, type PeriodBatchAnswer, type PeriodBatchOutcome } from '@tramo/domain';
import { errorMessage, newIdempotencyKey } from '../../lib/api.ts';
import { formatMoney } from '../../lib/format.ts';
import { WHOLE_CHIP } from './chips.ts';
import { useDuePeriods, useIssueDuePeriods } from './api/credit.ts';

const OUTCOME: Record<PeriodBatchOutcome, { label: string; color: string }> = {
  emitida: { label: 'Emitida', color: 'teal' },
  'ya emitida': { label: 'Ya emitida', color: 'gray' },
  rechazada: { label: 'No emitida', color: 'red' },
};

const periodText = (p: { from: string; to: string }) => `${dayText(p.from)} – ${dayText(p.to)}`;
const facturas = (n: number) => (n === 1 ? '1 factura' : `${n} facturas`);

/**
 * 'Facturar periodos vencidos' (issue 35): every active account's ended periods with credit
 * shipments not yet invoiced, previewed; 'Emitir N facturas' issues one period factura each and
 * shows each account's result. The key lives as long as the form: a retry is the same run.
 */
export function PeriodBatchForm({ onDone }: { onDone(): void }) {
  const [grouping, setGrouping] = useState<'envio' | 'ruta'>('envio');
  const [detractionAccount, setDetractionAccount] = useState('');
  const [accountError, setAccountError] = useState<string | null>(null);
  const [key] = useState(newIdempotencyKey);
  const [result, setResult] = useState<PeriodBatchAnswer | null>(null);
  const due = useDuePeriods(grouping, result === null);
  const issue = useIssueDuePeriods();
  if (result) return <BatchResults result={result} onDone={onDone} />;
  if (due.isPending)
    return (
      <Text size="sm" c="dimmed">
        Buscando periodos vencidos…
      </Text>
    );
  if (due.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(due.error, 'No se pudo cargar los periodos vencidos.')}
      </Alert>
    );
  const items = due.data.items;
  const ready = items.filter((i) => i.problem === null);
  const submit = () => {
    // Asked before the run: without it every detracción factura would come back 'No emitida'.
    if (due.data.needsDetractionAccount && !/^[0-9-]{6,30}$/.test(detractionAccount.trim())) {
      setAccountError(PERIOD_INVOICE_MESSAGES.account);
      return;
    }
    issue.mutate(
      {
        key,
        grouping,
        detractionAccount: detractionAccount.trim() || null,
        periods: ready.map((i) => ({ customerId: i.customerId, from: i.from, to: i.to })),
      },
      { onSuccess: setResult },
    );
  };
  return (
    <Stack gap="sm">
      <Text size="sm">
        Cuentas activas cuyo periodo de facturación terminó y tienen envíos a crédito sin facturar. Se emite una factura al crédito por cuenta y
        periodo.
      </Text>
      <SegmentedControl
        aria-label="Líneas"
        value={grouping}
        onChange={(v) => setGrouping(v as 'envio' | 'ruta')}
        data={[
          { value: 'envio', label: 'Una línea por envío' },
          { value: 'ruta', label: 'Una línea por ruta' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {items.length === 0 ? (
        <Text c="dimmed">No hay periodos vencidos por facturar.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Cliente</Table.Th>
                <Table.Th>Periodo</Table.Th>
                <Table.Th ta="right">Envíos</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
                <Table.Th ta="right">Detracción</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((i) => (
                <Table.Tr key={`${i.customerId}-${i.from}`}>
                  <Table.Td>
                    <Text size="sm" className="user-text">
                      {i.customerName}
                    </Text>
                    <Text size="xs" c="dimmed">
                      RUC {i.docNumber}
                    </Text>
                    {i.problem && (
                      <Text size="xs" c="red">
                        {i.problem}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{periodText(i)}</Table.Td>
                  <Table.Td ta="right">{i.shipments}</Table.Td>
                  <Table.Td ta="right">{formatMoney(i.total)}</Table.Td>
                  <Table.Td ta="right">{i.detraction === null ? '—' : formatMoney(i.detraction)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr fw={700}>
                <Table.Td colSpan={3}>Total</Table.Td>
                <Table.Td ta="right">{formatMoney(due.data.total)}</Table.Td>
                <Table.Td />
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      )}
      {due.data.needsDetractionAccount && (
        <TextInput
          label="Cuenta de detracciones (Banco de la Nación)"
          description="Para las facturas con detracción; se pide una vez para toda la corrida."
          withAsterisk
          value={detractionAccount}
          error={accountError}
          onChange={(e) => {
            setDetractionAccount(e.currentTarget.value);
            setAccountError(null);
          }}
          maw={440}
        />
      )}
      {issue.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(issue.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancelar
        </Button>
        <Button loading={issue.isPending} disabled={ready.length === 0} onClick={submit}>
          Emitir {facturas(ready.length)}
        </Button>
      </Group>
    </Stack>
  );
}

function BatchResults({ result, onDone }: { result: PeriodBatchAnswer; onDone(): void }) {
  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {[
          `${facturas(result.issued)} ${result.issued === 1 ? 'emitida' : 'emitidas'}`,
          result.already > 0 && `${result.already} ya estaba${result.already === 1 ? '' : 'n'} emitida${result.already === 1 ? '' : 's'}`,
          result.refused > 0 && `${result.refused} sin emitir`,
        ]
          .filter(Boolean)
          .join(', ')}
        .
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Cliente</Table.Th>
              <Table.Th>Periodo</Table.Th>
              <Table.Th>Resultado</Table.Th>
              <Table.Th>Factura</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.items.map((i) => (
              <Table.Tr key={`${i.customerId}-${i.from}`}>
                <Table.Td className="user-text">{i.customerName}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{periodText(i)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={OUTCOME[i.outcome].color} tt="none" styles={WHOLE_CHIP}>
                    {OUTCOME[i.outcome].label}
                  </Badge>
                  {i.message && (
                    <Text size="xs" c={i.outcome === 'rechazada' ? 'red' : 'dimmed'}>
                      {i.message}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{i.number ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="flex-end">
        <Button onClick={onDone}>Cerrar</Button>
      </Group>
    </Stack>
  );
}
