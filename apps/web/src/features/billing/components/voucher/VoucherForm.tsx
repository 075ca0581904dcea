import { useRef, useState } from 'react';
import { Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import {
  checkPerception,
  checkRetention,
  DEFAULT_SERIES,
  limaDay,
  PERCEPTION_PERCENT,
  RETENTION_PERCENT,
  VOUCHER_RELATED_TYPE_LABELS,
  VOUCHER_RELATED_TYPES,
  voucherFormProblems,
  voucherPreview,
  type IssueResult,
} from '@tramo/domain';
import { DayInput } from '../../../../components/ui/DateField.tsx';
import { formatMoney } from '../../../../lib/format.ts';
import { fieldError, fieldMessagesResolver, useSubmitProblems } from '../../../../lib/forms.ts';
import { notify } from '../../../../lib/notify.ts';
import { useCreateEmit } from '../../api/create-emit.ts';
import { IssuedCard } from '../IssuedCard.tsx';
import { IssueAlerts, newUniqueCode } from '../IssueAlerts.tsx';
import { RemoveRowButton } from '../RemoveRowButton.tsx';
import { ActionsTh } from '../../../../components/ui/ActionsTh.tsx';
import { useWideTable } from '../../../../components/ui/useWideTable.ts';

const RELATED_OPTIONS = VOUCHER_RELATED_TYPES.map((t) => ({ value: t, label: `${t} · ${VOUCHER_RELATED_TYPE_LABELS[t]}` }));

interface RelatedRow {
  tipo: string;
  serie: string;
  numero: string;
  fecha_de_emision: string;
  total: string;
  pago_fecha: string;
  pago_importe: string;
}
interface VoucherValues {
  serie: string;
  fecha_de_emision: string;
  porcentaje: string;
  observaciones: string;
  sujeto: { numero_de_documento: string; denominacion: string; direccion: string };
  documentos_relacionados: RelatedRow[];
}

const emptyRow = (): RelatedRow => ({ tipo: '01', serie: '', numero: '', fecha_de_emision: '', total: '', pago_fecha: '', pago_importe: '' });

/**
 * Tabs 'Retención' (20, RRR1, 3.00 %) and 'Percepción' (40, PPP1, 2.00 %): the subject, the related
 * documents with the amount withheld or perceived per line and in total, live; every rule of spec
 * section 5 said on its field when it is left and on submit ('Corrige:' keeps what no field holds). Wired into BillingPage together with the vouchers
 * API of issue 15 (POST /retencion/create-emit, /percepcion/create-emit).
 */
export function VoucherForm({ kind }: { kind: 'retencion' | 'percepcion' }) {
  const retention = kind === 'retencion';
  const type = retention ? '20' : '40';
  const today = limaDay(new Date());
  const initial: VoucherValues = {
    serie: DEFAULT_SERIES[type],
    fecha_de_emision: today,
    porcentaje: retention ? RETENTION_PERCENT : PERCEPTION_PERCENT,
    observaciones: '',
    sujeto: { numero_de_documento: '', denominacion: '', direccion: '' },
    documentos_relacionados: [emptyRow()],
  };
  /** The payload these values send, and every problem the rules find in it, placed on the fields. */
  const judge = (v: VoucherValues, code: string | null = null) => {
    const subject = { ...v.sujeto, direccion: v.sujeto.direccion.trim() || null };
    const payload = {
      serie: v.serie,
      fecha_de_emision: v.fecha_de_emision,
      moneda: 1,
      porcentaje: v.porcentaje,
      observaciones: v.observaciones.trim() || null,
      [retention ? 'proveedor' : 'cliente']: subject,
      documentos_relacionados: v.documentos_relacionados.map((r) => ({
        ...r,
        fecha_de_emision: r.fecha_de_emision || null,
        pago_fecha: r.pago_fecha || null,
        pago_importe: r.pago_importe.trim() || null,
        moneda: 1,
      })),
      codigo_unico: code,
    };
    const check = (retention ? checkRetention : checkPerception)(payload, { today });
    const found = check.ok ? [] : check.problems;
    return { payload, found, ...voucherFormProblems(type, v, found, today) };
  };
  const form = useForm<VoucherValues>({
    mode: 'onTouched',
    defaultValues: initial,
    resolver: fieldMessagesResolver((v) => judge(v).fields),
  });
  const formRef = useRef<HTMLFormElement>(null);
  const rows = useFieldArray({ control: form.control, name: 'documentos_relacionados' });
  const { wide, w } = useWideTable();
  const [watchedRows, percent] = useWatch({ control: form.control, name: ['documentos_relacionados', 'porcentaje'] });
  const preview = voucherPreview(type, watchedRows ?? [], percent ?? '');
  const [issued, setIssued] = useState<{ result: IssueResult; message: string | null } | null>(null);
  const uniqueCode = useRef(newUniqueCode());
  const create = useCreateEmit<Record<string, unknown>>(`/${kind}/create-emit`);
  const who = retention ? 'Proveedor' : 'Cliente';
  const amountLabel = retention ? 'Retenido' : 'Percibido';

  const { problems, setProblems, failure, setFailure, refuse } = useSubmitProblems(formRef);

  const submit = (v: VoucherValues) => {
    const { payload, found } = judge(v, uniqueCode.current);
    if (found.length > 0) return refuse(found);
    setFailure(null);
    setProblems([]);
    create.mutate(payload, {
      onSuccess: (outcome) => {
        if (outcome.kind === 'refused') setProblems(outcome.problems);
        else if (outcome.kind === 'issued') {
          setIssued({ result: outcome.result, message: outcome.result.error });
          notify.success(`Comprobante ${outcome.result.serie}-${outcome.result.numero} emitido.`);
        } else if (outcome.result) setIssued({ result: outcome.result, message: outcome.message });
        else setFailure(outcome.message);
      },
      onError: (err) => setFailure(err.message),
    });
  };

  if (issued)
    return (
      <IssuedCard
        type={type}
        result={issued.result}
        message={issued.message}
        onNew={() => {
          uniqueCode.current = newUniqueCode();
          setIssued(null);
          form.reset(initial);
        }}
      />
    );

  return (
    <form ref={formRef} noValidate onSubmit={(e) => void form.handleSubmit(submit, () => refuse(judge(form.getValues()).rest))(e)}>
      <Stack gap="md">
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <TextInput
              label="Serie"
              maxLength={4}
              {...form.register('serie', { setValueAs: (v: string) => v.toUpperCase() })}
              error={fieldError(form, 'serie')}
            />
            <Controller
              control={form.control}
              name="fecha_de_emision"
              render={({ field }) => (
                <DayInput
                  label="Fecha de emisión"
                  maxDate={today}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldError(form, 'fecha_de_emision')}
                />
              )}
            />
            <TextInput label="Porcentaje (%)" inputMode="decimal" {...form.register('porcentaje')} error={fieldError(form, 'porcentaje')} />
            <TextInput label="Moneda" value="1 · Soles (PEN)" readOnly />
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            {who}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label={`Documento del ${who.toLowerCase()} (RUC o DNI)`}
              inputMode="numeric"
              maxLength={11}
              {...form.register('sujeto.numero_de_documento')}
              error={fieldError(form, 'sujeto.numero_de_documento')}
            />
            <TextInput
              label="Nombre o razón social"
              maxLength={200}
              {...form.register('sujeto.denominacion')}
              error={fieldError(form, 'sujeto.denominacion')}
            />
            <TextInput label="Dirección" maxLength={200} {...form.register('sujeto.direccion')} />
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="md">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">
              Documentos relacionados
            </Title>
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => rows.append(emptyRow())}>
              Agregar documento
            </Button>
          </Group>
          <div style={{ overflowX: 'auto' }}>
            {/* Fixed widths on the counter PC; on the 1024 tablet the columns share what there is. */}
            <Table verticalSpacing={4} horizontalSpacing={6} miw={wide ? 1000 : undefined}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={w(170)}>Tipo</Table.Th>
                  <Table.Th w={w(80)}>Serie</Table.Th>
                  <Table.Th w={w(100)}>Número</Table.Th>
                  <Table.Th w={w(130)}>Emisión</Table.Th>
                  <Table.Th w={w(110)}>Total</Table.Th>
                  <Table.Th w={w(130)}>Fecha de pago</Table.Th>
                  <Table.Th w={w(110)}>Importe pagado</Table.Th>
                  <Table.Th ta="right">{amountLabel}</Table.Th>
                  <ActionsTh w={40} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.fields.map((field, i) => {
                  const n = i + 1;
                  const error = (name: keyof RelatedRow) => fieldError(form, `documentos_relacionados.${i}.${name}`);
                  return (
                    <Table.Tr key={field.id}>
                      <Table.Td>
                        <Controller
                          control={form.control}
                          name={`documentos_relacionados.${i}.tipo`}
                          render={({ field: f }) => (
                            <Select
                              size="xs"
                              aria-label={`Tipo del documento ${n}`}
                              data={RELATED_OPTIONS}
                              allowDeselect={false}
                              value={f.value}
                              onChange={(v) => f.onChange(v ?? '01')}
                              onBlur={f.onBlur}
                              error={error('tipo')}
                            />
                          )}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label={`Serie del documento ${n}`}
                          maxLength={4}
                          {...form.register(`documentos_relacionados.${i}.serie`, { setValueAs: (v: string) => v.toUpperCase() })}
                          error={error('serie')}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label={`Número del documento ${n}`}
                          inputMode="numeric"
                          maxLength={8}
                          {...form.register(`documentos_relacionados.${i}.numero`)}
                          error={error('numero')}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Controller
                          control={form.control}
                          name={`documentos_relacionados.${i}.fecha_de_emision`}
                          render={({ field: f }) => (
                            <DayInput
                              size="xs"
                              clearable
                              aria-label={`Emisión del documento ${n}`}
                              value={f.value}
                              onChange={f.onChange}
                              onBlur={f.onBlur}
                              error={error('fecha_de_emision')}
                            />
                          )}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label={`Total del documento ${n}`}
                          inputMode="decimal"
                          placeholder="0.00"
                          {...form.register(`documentos_relacionados.${i}.total`)}
                          error={error('total')}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Controller
                          control={form.control}
                          name={`documentos_relacionados.${i}.pago_fecha`}
                          render={({ field: f }) => (
                            <DayInput
                              size="xs"
                              clearable
                              aria-label={`Fecha de pago del documento ${n}`}
                              value={f.value}
                              onChange={f.onChange}
                              onBlur={f.onBlur}
                              error={error('pago_fecha')}
                            />
                          )}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label={`Importe pagado del documento ${n}`}
                          inputMode="decimal"
                          placeholder="0.00"
                          {...form.register(`documentos_relacionados.${i}.pago_importe`)}
                          error={error('pago_importe')}
                        />
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney((preview.lines[i]?.amountCents ?? 0) / 100)}
                      </Table.Td>
                      <Table.Td>
                        <RemoveRowButton label={`Quitar el documento ${n}`} onRemove={() => rows.remove(i)} disabled={rows.fields.length === 1} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </div>
        </Paper>
        <Textarea label="Observaciones" maxLength={500} autosize minRows={1} {...form.register('observaciones')} />
        <Group align="flex-end" justify="space-between" wrap="wrap-reverse" gap="md">
          <Stack gap="sm" style={{ flex: 1, minWidth: 280 }}>
            <IssueAlerts problems={problems} failure={failure} />
            <Group>
              <Button type="submit" size="md" loading={create.isPending}>
                Crear Documento
              </Button>
            </Group>
          </Stack>
          <Paper withBorder p="md" miw={260} aria-label="Totales">
            <Group justify="space-between" gap="xl">
              <Text size="sm">Total {amountLabel.toLowerCase()}</Text>
              <Text fw={700} ff="monospace" data-testid="voucher-amount">
                {formatMoney(preview.amountTotalCents / 100)}
              </Text>
            </Group>
            <Group justify="space-between" gap="xl">
              <Text size="sm">{retention ? 'Total pagado al proveedor' : 'Total cobrado al cliente'}</Text>
              <Text ff="monospace">{formatMoney(preview.netTotalCents / 100)}</Text>
            </Group>
          </Paper>
        </Group>
      </Stack>
    </form>
  );
}
