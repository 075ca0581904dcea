import { useRef, useState } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  formCustomer,
  formSeries,
  INVOICE_MESSAGES,
  invoicePayloadFromForm,
  invoiceProblems,
  isContingency,
  limaDay,
  type InvoiceFormValues,
  type IssueResult,
} from '@tramo/domain';
import { DayInput } from '../../../components/ui/DateField.tsx';
import { notify } from '../../../lib/notify.ts';
import { useCreateEmit } from '../api/create-emit.ts';
import { CreditNoteBlock } from './invoice/CreditNoteBlock.tsx';
import { CustomerBlock } from './invoice/CustomerBlock.tsx';
import { DetractionBlock } from './invoice/DetractionBlock.tsx';
import { GuidesBlock } from './invoice/GuidesBlock.tsx';
import { InstalmentsBlock } from './invoice/InstalmentsBlock.tsx';
import { ItemsBlock } from './invoice/ItemsBlock.tsx';
import { TYPE_OPTIONS } from './invoice/options.ts';
import { TotalsBox } from './invoice/TotalsBox.tsx';
import { IssuedCard } from './IssuedCard.tsx';
import { IssueAlerts, newUniqueCode } from './IssueAlerts.tsx';

/**
 * Tab 'Factura / Boleta' of /billing/preview: boleta, factura or credit note with live totals. Every
 * rule of spec section 5 runs before sending (the same `checkInvoice` the API runs) and is listed
 * under 'Corrige:'; a provider failure reads 'Error al emitir' or 'HTTP {status}'.
 */
export function InvoiceForm({ initial, onCreditNote }: { initial: InvoiceFormValues; onCreditNote(id: number): void }) {
  const today = limaDay(new Date());
  const form = useForm<InvoiceFormValues>({ defaultValues: initial });
  const [type, issueDate, paymentType, shipmentIds] = useWatch({ control: form.control, name: ['type', 'issueDate', 'paymentType', 'shipmentIds'] });
  const [problems, setProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [issued, setIssued] = useState<{ result: IssueResult; message: string | null } | null>(null);
  const uniqueCode = useRef(newUniqueCode());
  const problemsRef = useRef<HTMLDivElement>(null);
  const create = useCreateEmit<ReturnType<typeof invoicePayloadFromForm>>();

  const proposeSeries = () => form.setValue('serie', formSeries(form.getValues(), today));

  const submit = () => {
    const values = form.getValues();
    const payload = invoicePayloadFromForm(values, uniqueCode.current);
    const found = invoiceProblems(payload, { today, customer: values.customerId ? formCustomer(values) : null });
    setProblems(found);
    setFailure(null);
    if (found.length > 0) {
      requestAnimationFrame(() => problemsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' }));
      return;
    }
    create.mutate(payload, {
      onSuccess: (outcome) => {
        if (outcome.kind === 'refused') setProblems(outcome.problems);
        else if (outcome.kind === 'issued') {
          setIssued({ result: outcome.result, message: outcome.result.error });
          notify.success(`Documento ${outcome.result.serie}-${outcome.result.numero} emitido.`);
        } else if (outcome.result) setIssued({ result: outcome.result, message: outcome.message });
        else setFailure(outcome.message);
      },
      onError: (err) => setFailure(err instanceof Error ? err.message : INVOICE_MESSAGES.emitFailed),
    });
  };

  const startNew = () => {
    uniqueCode.current = newUniqueCode();
    setIssued(null);
    setProblems([]);
    form.reset({ ...initial, shipmentIds: [], issueDate: today });
  };

  if (issued) return <IssuedCard type={type} result={issued.result} message={issued.message} onNew={startNew} onCreditNote={onCreditNote} />;

  const contingency = /^\d{4}-\d{2}-\d{2}$/.test(issueDate) && isContingency(issueDate, today);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <Select
                  label="Tipo de comprobante"
                  data={TYPE_OPTIONS}
                  allowDeselect={false}
                  value={field.value}
                  onChange={(v) => {
                    field.onChange(v ?? '03');
                    if (v !== '01') form.setValue('detraction.enabled', false);
                    proposeSeries();
                  }}
                />
              )}
            />
            <TextInput
              label="Serie"
              maxLength={4}
              description={type === '07' ? 'FFF1 si modifica una factura; BBB1 si modifica una boleta' : undefined}
              {...form.register('serie', { setValueAs: (v: string) => v.toUpperCase() })}
            />
            <Controller
              control={form.control}
              name="issueDate"
              render={({ field }) => (
                <DayInput
                  label="Fecha de emisión"
                  maxDate={today}
                  value={field.value}
                  onChange={(day) => {
                    field.onChange(day);
                    proposeSeries();
                  }}
                  description={contingency ? 'Fecha pasada: se emite en contingencia (serie 0001)' : undefined}
                />
              )}
            />
            <Controller
              control={form.control}
              name="paymentType"
              render={({ field }) => (
                <Stack gap={4}>
                  <Text size="sm" fw={500}>
                    Forma de pago
                  </Text>
                  <SegmentedControl
                    value={field.value}
                    onChange={(v) => {
                      field.onChange(v);
                      if (v === 'credito' && form.getValues('instalments').length === 0) form.setValue('instalments', [{ dueDate: '', amount: '' }]);
                    }}
                    data={[
                      { value: 'contado', label: 'Contado' },
                      { value: 'credito', label: 'Crédito' },
                    ]}
                  />
                </Stack>
              )}
            />
          </SimpleGrid>
        </Paper>

        {type === '07' && <CreditNoteBlock form={form} onModifiedType={proposeSeries} />}
        <CustomerBlock form={form} />
        {shipmentIds.length > 0 && (
          <Alert color="blue" variant="light">
            Este comprobante factura {shipmentIds.length === 1 ? '1 envío' : `${shipmentIds.length} envíos`}: una línea por envío. Al emitirlo, cada
            envío queda vinculado al comprobante.
          </Alert>
        )}
        <ItemsBlock form={form} />
        <GuidesBlock form={form} />
        {type === '01' && <DetractionBlock form={form} />}
        {paymentType === 'credito' && <InstalmentsBlock form={form} />}
        <Textarea label="Observaciones" maxLength={500} autosize minRows={1} {...form.register('observations')} />

        <Group align="flex-end" justify="space-between" wrap="wrap-reverse" gap="md">
          <Stack gap="sm" style={{ flex: 1, minWidth: 280 }}>
            <IssueAlerts problems={problems} failure={failure} problemsRef={problemsRef} />
            <Group>
              <Button type="submit" size="md" loading={create.isPending}>
                Crear Documento
              </Button>
            </Group>
          </Stack>
          <TotalsBox control={form.control} />
        </Group>
      </Stack>
    </form>
  );
}
