import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  AGEING_BUCKET_LABELS,
  COLLECTION_METHOD_LABELS,
  collectionVoidSchema,
  dayText,
  limaDay,
  type CreditAccountDetail,
  type CreditInvoiceAnswer,
} from '@tramo/domain';
import { DayInput } from '../../components/ui/DateField.tsx';
import { Field } from '../../components/ui/Field.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { ActionForm } from './ActionForm.tsx';
import { CollectionForm } from './CollectionForm.tsx';
import { PeriodInvoiceForm } from './PeriodInvoiceForm.tsx';
import { StatementView } from './StatementView.tsx';
import { WHOLE_CHIP } from './chips.ts';
import { useCreditAccount, useDetractionDeposit, useVoidCollection } from './api/credit.ts';

/** One account: what it owes and why (facturas, cobros, envíos por facturar), and its actions. */
export function AccountDetail({ customerId }: { customerId: number }) {
  const account = useCreditAccount(customerId);
  const [modal, setModal] = useState<'cobro' | 'estado' | 'periodo' | { deposit: CreditInvoiceAnswer } | { void: number } | null>(null);
  if (account.isPending) return <PageSkeleton />;
  if (account.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(account.error, 'No se pudo cargar la cuenta.')}
      </Alert>
    );
  const a = account.data;
  const close = () => setModal(null);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3" className="user-text">
            {a.customerName}
          </Title>
          <Text c="dimmed" size="sm">
            RUC {a.docNumber} · {a.termsDays} días · contacto {a.contactName}
          </Text>
        </div>
        <Group gap="xs">
          <Button onClick={() => setModal('cobro')}>Registrar cobro</Button>
          <Button variant="default" onClick={() => setModal('periodo')}>
            Facturar periodo
          </Button>
          <Button variant="default" onClick={() => setModal('estado')}>
            Estado de cuenta
          </Button>
        </Group>
      </Group>
      {a.overdue && (
        <Alert color="red" variant="light">
          Cliente con facturas vencidas: no se registran nuevos envíos a crédito hasta que pague o un administrador lo autorice.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 5 }}>
        <Field label="Límite">{formatMoney(a.limit)}</Field>
        <Field label="Saldo">{formatMoney(a.balance)}</Field>
        <Field label="Disponible">{formatMoney(a.available)}</Field>
        <Field label="Envíos por facturar">{formatMoney(a.uninvoiced)}</Field>
        <Field label="Saldo a favor">{formatMoney(a.unapplied)}</Field>
      </SimpleGrid>
      <InvoicesTable account={a} onDeposit={(invoice) => setModal({ deposit: invoice })} />
      <CollectionsTable account={a} onVoid={(id) => setModal({ void: id })} />
      {a.shipments.length > 0 && (
        <>
          <Title order={3} size="h5">
            Envíos a crédito por facturar
          </Title>
          <Table.ScrollContainer minWidth={600}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Código</Table.Th>
                  <Table.Th>Fecha</Table.Th>
                  <Table.Th>Ruta</Table.Th>
                  <Table.Th ta="right">Importe</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {a.shipments.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{s.code}</Table.Td>
                    <Table.Td>{formatDateTime(s.createdAt)}</Table.Td>
                    <Table.Td>{s.route}</Table.Td>
                    <Table.Td ta="right">{formatMoney(s.amount)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      <Modal opened={modal === 'cobro'} onClose={close} title="Registrar cobro" size="lg">
        {modal === 'cobro' && <CollectionForm account={a} onDone={close} />}
      </Modal>
      <Modal opened={modal === 'periodo'} onClose={close} title="Facturar periodo" size="lg">
        {modal === 'periodo' && <PeriodInvoiceForm account={a} onDone={close} />}
      </Modal>
      <Modal opened={modal === 'estado'} onClose={close} title="Estado de cuenta" size="min(1000px, 100%)">
        {modal === 'estado' && <StatementView account={a} />}
      </Modal>
      <Modal opened={typeof modal === 'object' && modal !== null && 'deposit' in modal} onClose={close} title="Depósito de detracción">
        {typeof modal === 'object' && modal !== null && 'deposit' in modal && <DepositForm invoice={modal.deposit} onDone={close} />}
      </Modal>
      <Modal opened={typeof modal === 'object' && modal !== null && 'void' in modal} onClose={close} title="Anular cobro">
        {typeof modal === 'object' && modal !== null && 'void' in modal && <VoidForm collectionId={modal.void} onDone={close} />}
      </Modal>
    </Stack>
  );
}

function InvoicesTable({ account, onDeposit }: { account: CreditAccountDetail; onDeposit(invoice: CreditInvoiceAnswer): void }) {
  return (
    <>
      <Title order={3} size="h5">
        Facturas al crédito
      </Title>
      {account.invoices.length === 0 ? (
        <Text c="dimmed" size="sm">
          Sin facturas al crédito.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={960}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Factura</Table.Th>
                <Table.Th>Emisión</Table.Th>
                <Table.Th>Vence</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
                <Table.Th ta="right">Notas</Table.Th>
                <Table.Th ta="right">Cobrado</Table.Th>
                <Table.Th>Detracción</Table.Th>
                <Table.Th ta="right">Saldo</Table.Th>
                <Table.Th>Antigüedad</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {account.invoices.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.number}</Table.Td>
                  <Table.Td>{dayText(i.issueDate)}</Table.Td>
                  <Table.Td>{dayText(i.dueDate)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(i.total)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(i.credited)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(i.collected)}</Table.Td>
                  <Table.Td>
                    {i.detractionStatus === null ? (
                      '—'
                    ) : i.detractionStatus === 'depositada' ? (
                      <Text size="sm">
                        {formatMoney(i.detraction)} depositada · {i.constancia}
                      </Text>
                    ) : (
                      <Group gap={4} wrap="nowrap">
                        <Text size="sm">{formatMoney(i.detraction)} pendiente</Text>
                        <Button size="compact-xs" variant="light" onClick={() => onDeposit(i)}>
                          Registrar depósito
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                  <Table.Td ta="right" fw={600}>
                    {formatMoney(i.open)}
                  </Table.Td>
                  <Table.Td>
                    {i.open > 0 ? (
                      <Badge variant="light" color={i.bucket === 'porVencer' ? 'gray' : 'red'} tt="none" styles={WHOLE_CHIP}>
                        {AGEING_BUCKET_LABELS[i.bucket]}
                      </Badge>
                    ) : (
                      <Badge variant="light" color="teal" tt="none" styles={WHOLE_CHIP}>
                        Pagada
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

function CollectionsTable({ account, onVoid }: { account: CreditAccountDetail; onVoid(id: number): void }) {
  const invoiceNumber = new Map(account.invoices.map((i) => [i.id, i.number]));
  return (
    <>
      <Title order={3} size="h5">
        Cobros
      </Title>
      {account.collections.length === 0 ? (
        <Text c="dimmed" size="sm">
          Sin cobros registrados.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Fecha</Table.Th>
                <Table.Th>Medio</Table.Th>
                <Table.Th>Banco · operación</Table.Th>
                <Table.Th ta="right">Importe</Table.Th>
                <Table.Th>Aplicado a</Table.Th>
                <Table.Th ta="right">A favor</Table.Th>
                <Table.Th>Estado</Table.Th>
                <Table.Th>Acciones</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {account.collections.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>{dayText(c.receivedOn)}</Table.Td>
                  <Table.Td>{COLLECTION_METHOD_LABELS[c.method]}</Table.Td>
                  <Table.Td>{[c.bank, c.operationNumber].filter(Boolean).join(' · ') || '—'}</Table.Td>
                  <Table.Td ta="right">{formatMoney(c.amount)}</Table.Td>
                  <Table.Td>
                    {c.allocations.map((x) => `${invoiceNumber.get(x.documentId) ?? x.documentId}: ${formatMoney(x.amount)}`).join(', ') || '—'}
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(c.unapplied)}</Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={c.status === 'vigente' ? 'teal' : 'gray'}
                      tt="none"
                      styles={WHOLE_CHIP}
                      title={c.voidReason ?? undefined}
                    >
                      {c.status === 'vigente' ? 'Vigente' : 'Anulado'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {c.status === 'vigente' && (
                      <Button size="compact-xs" color="red" variant="light" onClick={() => onVoid(c.id)}>
                        Anular
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

function DepositForm({ invoice, onDone }: { invoice: CreditInvoiceAnswer; onDone(): void }) {
  const [constancia, setConstancia] = useState('');
  const [day, setDay] = useState(limaDay(new Date()));
  return (
    <ActionForm
      mutation={useDetractionDeposit()}
      values={{ documentId: invoice.id, constancia, depositedOn: day }}
      submitLabel="Registrar"
      success="Depósito de detracción registrado"
      onDone={onDone}
    >
      <Text size="sm">
        Factura {invoice.number}: detracción de {formatMoney(invoice.detraction)} depositada por el cliente en el Banco de la Nación.
      </Text>
      <TextInput label="Número de constancia" withAsterisk value={constancia} onChange={(e) => setConstancia(e.currentTarget.value)} />
      <DayInput label="Fecha del depósito" withAsterisk value={day} onChange={setDay} />
    </ActionForm>
  );
}

function VoidForm({ collectionId, onDone }: { collectionId: number; onDone(): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The domain's rule before any request: on leaving the field and on 'Anular cobro' (issue 38).
  const check = () => {
    const parsed = collectionVoidSchema.safeParse({ reason });
    setError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    return parsed.success;
  };
  return (
    <ActionForm
      mutation={useVoidCollection()}
      values={{ id: collectionId, reason }}
      submitLabel="Anular cobro"
      success="Cobro anulado"
      danger
      validate={check}
      onDone={onDone}
    >
      <TextInput
        label="Motivo"
        withAsterisk
        description="Mínimo 10 caracteres"
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        onBlur={() => void check()}
        error={error}
      />
    </ActionForm>
  );
}
