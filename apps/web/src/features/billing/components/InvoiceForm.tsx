import { useRef, useState } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  formCustomer,
  formSeries,
  INVOICE_MESSAGES,
  invoicePayloadFromForm,
  invoiceFormProblems,
  invoiceProblems,
  isContingency,
  limaDay,
  type InvoiceFormValues,
  type IssueResult,
} from '@tramo/domain';
import { DayInput } from '../../../components/ui/DateField.tsx';
import { fieldError, fieldMessagesResolver, useSubmitProblems } from '../../../lib/forms.ts';
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
 * rule of spec section 5 runs before sending (the same `checkInvoice` the API runs): each problem shows on
 * its field when the field is left and on submit, and 'Corrige:' lists only those no field holds (and
 * the API's refusals); a provider failure reads 'Error al emitir' or 'HTTP {status}'.
 */
export function InvoiceForm({ initial, onCreditNote }: { initial: InvoiceFormValues; onCreditNote(id: number): void }) {
  const today = limaDay(new Date());
  const uniqueCode = useRef(newUniqueCode());
  /** Every problem of these values, placed: `fields` on their inputs, `rest` for 'Corrige:'. */
  const judge = (values: InvoiceFormValues, code: string | null = null) => {
    const payload = invoicePayloadFromForm(values, code);
    const found = invoiceProblems(payload, { today, customer: values.customerId ? formCustomer(values) : null });
    return { payload, found, ...invoiceFormProblems(values, found, today) };
  };
  const form = useForm<InvoiceFormValues>({
    mode: 'onTouched',
    defaultValues: initial,
    resolver: fieldMessagesResolver((values) => judge(values).fields),
  });
  const [type, issueDate, paymentType, shipmentIds] = useWatch({ control: form.control, name: ['type', 'issueDate', 'paymentType', 'shipmentIds'] });
  const [issued, setIssued] = useState<{ result: IssueResult; message: string | null } | null>(null);
  const problemsRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const { problems, setProblems, failure, setFailure, refuse: refuseOnFields } = useSubmitProblems(formRef);
  const create = useCreateEmit<ReturnType<typeof invoicePayloadFromForm>>();

  // A message already on the series is judged again for the one proposed.
  const proposeSeries = () => form.setValue('serie', formSeries(form.getValues(), today), { shouldValidate: form.getFieldState('serie').invalid });

  /** A refused submit: the fields say their own; the rest goes under 'Corrige:', scrolled to when no field took the focus. */
  const refuse = (rest: string[]) => {
    refuseOnFields(rest);
    if (rest.length > 0 && Object.keys(form.formState.errors).length === 0)
      requestAnimationFrame(() => problemsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' }));
  };

  const submit = (values: InvoiceFormValues) => {
    const { payload, found } = judge(values, uniqueCode.current);
    if (found.length > 0) return refuse(found);
    setProblems([]);
    setFailure(null);
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
    <form ref={formRef} noValidate onSubmit={(e) => void form.handleSubmit(submit, () => refuse(judge(form.getValues()).rest))(e)}>
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
              error={fieldError(form, 'serie')}
            />
            <Controller
              control={form.control}
              name="issueDate"
              render={({ field }) => (
                <DayInput
                  label="Fecha de emisión"
                  maxDate={today}
                  value={field.value}
                  onBlur={field.onBlur}
                  error={fieldError(form, 'issueDate')}
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
        <Textarea
          label="Observaciones"
          maxLength={500}
          autosize
          minRows={1}
          {...form.register('observations')}
          error={fieldError(form, 'observations')}
        />

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
