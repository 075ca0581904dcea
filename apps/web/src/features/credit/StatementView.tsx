import { useState } from 'react';
import { Alert, Button, Group, SimpleGrid, Table } from '@mantine/core';
import { AGEING_BUCKET_LABELS, dayText, limaDay, STATEMENT_LINE_LABELS, statementFileName } from '@tramo/domain';
import { DayInput } from '../../components/ui/DateField.tsx';
import { Field } from '../../components/ui/Field.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { apiFile, errorMessage } from '../../lib/api.ts';
import { saveBlob } from '../../lib/files.ts';
import { notify } from '../../lib/notify.ts';
import { formatMoney } from '../../lib/format.ts';
import { useCreditStatement } from './api/credit.ts';

/** The estado de cuenta of a period: opening balance, every movement with its running balance, closing, and what is due. */
export function StatementView({ customerId }: { customerId: number }) {
  const today = limaDay(new Date());
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const statement = useCreditStatement(customerId, from, to, Boolean(from && to));
  const download = async (ext: 'pdf' | 'csv') => {
    if (!statement.data) return;
    try {
      saveBlob(await apiFile(`/credit/accounts/${customerId}/statement.${ext}`, { from, to }), statementFileName(statement.data, ext));
    } catch (err) {
      notify.error(err);
    }
  };
  return (
    <>
      <Group gap="sm" mb="sm">
        <DayInput label="Desde" value={from} onChange={setFrom} w={160} />
        <DayInput label="Hasta" value={to} onChange={setTo} w={160} />
        <Group gap="xs" mt={24}>
          <Button variant="default" disabled={!statement.data} onClick={() => void download('pdf')}>
            Descargar PDF
          </Button>
          <Button variant="default" disabled={!statement.data} onClick={() => void download('csv')}>
            Descargar CSV
          </Button>
        </Group>
      </Group>
      {statement.isPending ? (
        <PageSkeleton />
      ) : statement.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(statement.error, 'No se pudo cargar el estado de cuenta.')}
        </Alert>
      ) : (
        <>
          <SimpleGrid cols={4} mb="sm">
            <Field label="Saldo inicial">{formatMoney(statement.data.opening)}</Field>
            <Field label="Cargos">{formatMoney(statement.data.debits)}</Field>
            <Field label="Abonos">{formatMoney(statement.data.credits)}</Field>
            <Field label="Saldo final">{formatMoney(statement.data.closing)}</Field>
          </SimpleGrid>
          <Table.ScrollContainer minWidth={760}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Fecha</Table.Th>
                  <Table.Th>Movimiento</Table.Th>
                  <Table.Th>Referencia</Table.Th>
                  <Table.Th ta="right">Cargo</Table.Th>
                  <Table.Th ta="right">Abono</Table.Th>
                  <Table.Th ta="right">Saldo</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {statement.data.rows.map((r, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{dayText(r.date)}</Table.Td>
                    <Table.Td>{STATEMENT_LINE_LABELS[r.kind]}</Table.Td>
                    <Table.Td>
                      {r.reference}
                      {r.document !== null && ` (${formatMoney(r.document)})`}
                    </Table.Td>
                    <Table.Td ta="right">{r.debit ? formatMoney(r.debit) : ''}</Table.Td>
                    <Table.Td ta="right">{r.credit ? formatMoney(r.credit) : ''}</Table.Td>
                    <Table.Td ta="right">{formatMoney(r.balance)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {statement.data.due.length > 0 && (
            <Table mt="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Por pagar</Table.Th>
                  <Table.Th>Vence</Table.Th>
                  <Table.Th ta="right">Saldo</Table.Th>
                  <Table.Th>Antigüedad</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {statement.data.due.map((d) => (
                  <Table.Tr key={d.reference}>
                    <Table.Td>{d.reference}</Table.Td>
                    <Table.Td>{dayText(d.dueDate)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(d.open)}</Table.Td>
                    <Table.Td>{AGEING_BUCKET_LABELS[d.bucket]}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </>
  );
}
