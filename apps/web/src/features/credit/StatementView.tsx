import { useState } from 'react';
import { Alert, Button, Group, Paper, Radio, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import {
  AGEING_BUCKET_LABELS,
  dayText,
  limaDay,
  STATEMENT_CHANNEL_LABELS,
  STATEMENT_LINE_LABELS,
  STATEMENT_LINK_DAYS,
  STATEMENT_SEND_MESSAGES,
  statementFileName,
  type CreditAccountAnswer,
  type StatementChannel,
} from '@tramo/domain';
import { DayInput } from '../../components/ui/DateField.tsx';
import { Field } from '../../components/ui/Field.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { apiFile, errorMessage, newIdempotencyKey } from '../../lib/api.ts';
import { saveBlob } from '../../lib/files.ts';
import { notify } from '../../lib/notify.ts';
import { formatMoney } from '../../lib/format.ts';
import { ActionForm } from './ActionForm.tsx';
import { useCreditStatement, useSendStatement } from './api/credit.ts';

/**
 * The estado de cuenta of a period: opening balance, every movement with its running balance,
 * closing, and what is due; downloaded as PDF or CSV, or sent to the account's statement contact.
 */
export function StatementView({ account }: { account: CreditAccountAnswer }) {
  const customerId = account.customerId;
  const today = limaDay(new Date());
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [sending, setSending] = useState(false);
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
          <Button disabled={!statement.data || sending} onClick={() => setSending(true)}>
            Enviar
          </Button>
        </Group>
      </Group>
      {sending && <SendForm account={account} from={from} to={to} onDone={() => setSending(false)} />}
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

/**
 * 'Enviar': by e-mail with the PDF or by WhatsApp with a link, to the contact the account names.
 * The key lives as long as the form, so a double click or a retry after a timeout sends once.
 */
function SendForm({ account, from, to, onDone }: { account: CreditAccountAnswer; from: string; to: string; onDone(): void }) {
  const [key] = useState(newIdempotencyKey);
  const [channel, setChannel] = useState<StatementChannel>(account.contactEmail ? 'email' : 'whatsapp');
  const address = { email: account.contactEmail, whatsapp: account.contactPhone };
  return (
    <Paper withBorder p="sm" mb="sm" maw={560}>
      <ActionForm
        mutation={useSendStatement()}
        values={{ customerId: account.customerId, key, from, to, channel }}
        submitLabel="Enviar estado de cuenta"
        success={STATEMENT_SEND_MESSAGES.queued}
        onDone={onDone}
      >
        <Text size="sm">
          Del {dayText(from)} al {dayText(to)}, a {account.contactName}:
        </Text>
        <Radio.Group value={channel} onChange={(v) => setChannel(v as StatementChannel)} aria-label="Canal">
          <Stack gap={6}>
            {(['email', 'whatsapp'] as const).map((c) => (
              <Radio
                key={c}
                value={c}
                label={`${STATEMENT_CHANNEL_LABELS[c]} · ${address[c] ?? 'sin dato en la cuenta'}`}
                description={c === 'whatsapp' ? `El enlace abre el PDF sin sesión durante ${STATEMENT_LINK_DAYS} días.` : undefined}
              />
            ))}
          </Stack>
        </Radio.Group>
      </ActionForm>
    </Paper>
  );
}
