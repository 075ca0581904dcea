import { useState } from 'react';
import { Alert, Button, Group, SegmentedControl, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { dayText, lastEndedPeriod, limaDay, type CreditAccountDetail, type IssueResult, type PeriodInvoicePreview } from '@tramo/domain';
import { DayInput } from '../../components/ui/DateField.tsx';
import { Field } from '../../components/ui/Field.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { formatMoney } from '../../lib/format.ts';
import { notify } from '../../lib/notify.ts';
import { useIssuePeriodInvoice } from './api/credit.ts';

/** 'Facturar periodo': the preview of a closed period's factura al crédito, then its issue. */
export function PeriodInvoiceForm({ account, onDone }: { account: CreditAccountDetail; onDone(): void }) {
  const last = lastEndedPeriod(account.period, limaDay(new Date()));
  const [from, setFrom] = useState(last.from);
  const [to, setTo] = useState(last.to);
  const [grouping, setGrouping] = useState<'envio' | 'ruta'>('envio');
  const [detractionAccount, setDetractionAccount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const issue = useIssuePeriodInvoice();
  const preview = useQuery({
    queryKey: ['credit', 'period-preview', account.customerId, from, to, grouping],
    queryFn: ({ signal }) => api.get<PeriodInvoicePreview>(`/credit/accounts/${account.customerId}/invoice-period`, { from, to, grouping }, signal),
    enabled: Boolean(from && to),
    retry: false,
  });
  const submit = () => {
    setError(null);
    issue.mutate(
      { customerId: account.customerId, from, to, grouping, detractionAccount: detractionAccount.trim() || null },
      {
        onSuccess: (r: IssueResult) => {
          notify.success(`Factura ${r.serie}-${r.numero} emitida`);
          onDone();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end">
        <DayInput label="Desde" value={from} onChange={setFrom} w={150} />
        <DayInput label="Hasta" value={to} onChange={setTo} w={150} />
        <SegmentedControl
          aria-label="Líneas"
          value={grouping}
          onChange={(v) => setGrouping(v as 'envio' | 'ruta')}
          data={[
            { value: 'envio', label: 'Una línea por envío' },
            { value: 'ruta', label: 'Una línea por ruta' },
          ]}
        />
      </Group>
      {preview.isError ? (
        <Alert color="yellow" variant="light">
          {errorMessage(preview.error)}
        </Alert>
      ) : preview.data ? (
        <>
          <Text size="sm">
            {preview.data.shipments.length === 1 ? '1 envío' : `${preview.data.shipments.length} envíos`} a crédito del {dayText(from)} al{' '}
            {dayText(to)}.
          </Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Línea</Table.Th>
                <Table.Th ta="right">Valor unitario</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.data.items.map((i, n) => (
                <Table.Tr key={n}>
                  <Table.Td className="user-text">{i.description}</Table.Td>
                  <Table.Td ta="right">{i.unitValue.toFixed(2)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <SimpleGrid cols={4}>
            <Field label="Gravada">{formatMoney(preview.data.gravada)}</Field>
            <Field label="IGV">{formatMoney(preview.data.igv)}</Field>
            <Field label="Total">{formatMoney(preview.data.total)}</Field>
            <Field label="Vence">{dayText(preview.data.dueDate)}</Field>
          </SimpleGrid>
          {preview.data.detraction !== null && (
            <>
              <Text size="sm">
                Detracción (SPOT 027, 4 %): {formatMoney(preview.data.detraction)}; el cliente paga {formatMoney(preview.data.payable)}.
                {preview.data.trip && ` Viaje: ${preview.data.trip.detail}`}
              </Text>
              <TextInput
                label="Cuenta de detracciones (Banco de la Nación)"
                withAsterisk
                value={detractionAccount}
                onChange={(e) => setDetractionAccount(e.currentTarget.value)}
              />
            </>
          )}
        </>
      ) : (
        <Text size="sm" c="dimmed">
          Cargando…
        </Text>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancelar
        </Button>
        <Button loading={issue.isPending} disabled={!preview.data} onClick={submit}>
          Emitir factura
        </Button>
      </Group>
    </Stack>
  );
}
