import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  checkGuide,
  DEFAULT_SERIES,
  guideFormProblems,
  limaDay,
  TRANSFER_REASON_LABELS,
  TRANSFER_REASONS,
  TRANSPORT_TYPE_LABELS,
  TRANSPORT_TYPES,
  type GuideDocumentType,
  type IssueResult,
} from '@tramo/domain';
import { DayInput } from '../../../../components/ui/DateField.tsx';
import { api } from '../../../../lib/api.ts';
import { fieldError, fieldMessagesResolver, useSubmitProblems } from '../../../../lib/forms.ts';
import { notify } from '../../../../lib/notify.ts';
import { useCreateEmit } from '../../api/create-emit.ts';
import { IssuedCard } from '../IssuedCard.tsx';
import { GuideItems } from './GuideItems.tsx';
import { GuideParties } from './GuideParties.tsx';
import { emptyGuide, guidePayloadOf, type GuideValues } from './guide-values.ts';
import { IssueAlerts, newUniqueCode } from '../IssueAlerts.tsx';

/** Spec section 4: after issuing, the PDF is asked for every 1.5 s for up to 25 s. */
const POLL_MS = 1_500;
const POLL_FOR_MS = 25_000;
/** Spec section 8. */
export const GUIDE_PDF_PENDING = 'Guía emitida. Aún no hay PDF (SUNAT pendiente)...';

const REASON_OPTIONS = TRANSFER_REASONS.map((r) => ({ value: r, label: `${r} · ${TRANSFER_REASON_LABELS[r]}` }));
const TRANSPORT_OPTIONS = TRANSPORT_TYPES.map((t) => ({ value: t, label: `${t} · ${TRANSPORT_TYPE_LABELS[t]}` }));

function Point({ form, name, title }: { form: UseFormReturn<GuideValues>; name: 'punto_de_partida' | 'punto_de_llegada'; title: string }) {
  return (
    <div>
      <Title order={2} size="h5" mb={4}>
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput
          label={`Ubigeo de ${title.toLowerCase()}`}
          inputMode="numeric"
          maxLength={6}
          {...form.register(`${name}.ubigeo`)}
          error={fieldError(form, `${name}.ubigeo`)}
        />
        <TextInput
          label={`Dirección de ${title.toLowerCase()}`}
          maxLength={200}
          {...form.register(`${name}.direccion`)}
          error={fieldError(form, `${name}.direccion`)}
        />
        <TextInput
          label={`Establecimiento SUNAT de ${title.toLowerCase()}`}
          maxLength={4}
          placeholder="0000"
          {...form.register(`${name}.codigo_establecimiento_sunat`)}
          error={fieldError(form, `${name}.codigo_establecimiento_sunat`)}
        />
      </SimpleGrid>
    </div>
  );
}

/** After issuing: asks for the PDF every 1.5 s for 25 s, then says it is still pending at SUNAT. */
function IssuedGuide({ type, result, onNew }: { type: GuideDocumentType; result: IssueResult; onNew(): void }) {
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setGaveUp(true), POLL_FOR_MS);
    return () => clearTimeout(timer);
  }, []);
  const consult = useQuery({
    queryKey: ['billing', 'guide-consult', result.id],
    queryFn: () => api.post<IssueResult>('/guides/consult', { tipo: type, serie: result.serie, numero: result.numero }),
    enabled: result.status !== 'aceptado' && !gaveUp,
    refetchInterval: (q) => (q.state.data?.status === 'aceptado' ? false : POLL_MS),
  });
  const latest = consult.data ?? result;
  const waiting = latest.status !== 'aceptado';
  return (
    <IssuedCard
      type={type}
      result={latest}
      message={waiting ? (gaveUp ? GUIDE_PDF_PENDING : 'Esperando la respuesta de SUNAT para el PDF…') : null}
      onNew={onNew}
    />
  );
}

/**
 * Tab 'Guía de remisión': GRE remitente (09, TTT1) or transportista (31, VVV1); every rule of spec
 * section 5 said on its field when it is left and on submit ('Corrige:' keeps what no field holds). `initial` comes pre-filled for a transport's load;
 * `issuePath` then issues it for that transport (its shipments are linked to the guide).
 */
export function GuideForm({ initial, issuePath = '/guides/create-emit' }: { initial?: GuideValues; issuePath?: string }) {
  const today = limaDay(new Date());
  const start = initial ?? emptyGuide('09', today);
  /** The payload these values send, and every problem the rules find in it, placed on the fields. */
  const judge = (values: GuideValues, code: string | null = null) => {
    const payload = guidePayloadOf(values, code);
    const check = checkGuide(payload, { today });
    const found = check.ok ? [] : check.problems;
    return { payload, found, ...guideFormProblems(values, found, today) };
  };
  const form = useForm<GuideValues>({ mode: 'onTouched', defaultValues: start, resolver: fieldMessagesResolver((v) => judge(v).fields) });
  const formRef = useRef<HTMLFormElement>(null);
  const [type, issueDate] = useWatch({ control: form.control, name: ['type', 'fecha_de_emision'] });
  const [issued, setIssued] = useState<IssueResult | null>(null);
  const uniqueCode = useRef(newUniqueCode());
  const create = useCreateEmit<ReturnType<typeof guidePayloadOf>>(issuePath);

  const { problems, setProblems, failure, setFailure, refuse } = useSubmitProblems(formRef);

  const submit = (values: GuideValues) => {
    const { payload, found } = judge(values, uniqueCode.current);
    if (found.length > 0) return refuse(found);
    setFailure(null);
    setProblems([]);
    create.mutate(payload, {
      onSuccess: (outcome) => {
        if (outcome.kind === 'refused') setProblems(outcome.problems);
        else if (outcome.kind === 'issued') {
          setIssued(outcome.result);
          notify.success(`Guía ${outcome.result.serie}-${outcome.result.numero} emitida.`);
        } else if (outcome.result) {
          setIssued(outcome.result);
          setFailure(outcome.message);
        } else setFailure(outcome.message);
      },
      onError: (err) => setFailure(err.message),
    });
  };

  if (issued)
    return (
      <Stack>
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <IssuedGuide
          type={type}
          result={issued}
          onNew={() => {
            uniqueCode.current = newUniqueCode();
            setIssued(null);
            setFailure(null);
            form.reset(emptyGuide(type, today));
          }}
        />
      </Stack>
    );

  const carrierMode = type === '31';
  return (
    <form ref={formRef} noValidate onSubmit={(e) => void form.handleSubmit(submit, () => refuse(judge(form.getValues()).rest))(e)}>
      <Stack gap="md">
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <SegmentedControl
                  aria-label="Tipo de guía"
                  value={field.value}
                  onChange={(v) => {
                    const next = v as GuideDocumentType;
                    field.onChange(next);
                    form.setValue('serie', DEFAULT_SERIES[next]);
                    if (next === '31') form.setValue('tipo_de_transporte', '02');
                  }}
                  data={[
                    { value: '09', label: 'Remitente (GRE-R)' },
                    { value: '31', label: 'Transportista (GRE-T)' },
                  ]}
                />
              )}
            />
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
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
              <Controller
                control={form.control}
                name="fecha_de_inicio_de_traslado"
                render={({ field }) => (
                  <DayInput
                    label="Inicio del traslado"
                    minDate={issueDate || undefined}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={fieldError(form, 'fecha_de_inicio_de_traslado')}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="motivo_de_traslado"
                render={({ field }) => (
                  <Select
                    label="Motivo de traslado"
                    data={REASON_OPTIONS}
                    allowDeselect={false}
                    value={field.value}
                    onChange={(v) => field.onChange(v ?? '01')}
                    onBlur={field.onBlur}
                    error={fieldError(form, 'motivo_de_traslado')}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="tipo_de_transporte"
                render={({ field }) => (
                  <Select
                    label="Tipo de transporte"
                    data={TRANSPORT_OPTIONS}
                    allowDeselect={false}
                    disabled={carrierMode}
                    value={field.value}
                    onChange={(v) => field.onChange(v ?? '01')}
                    onBlur={field.onBlur}
                    error={fieldError(form, 'tipo_de_transporte')}
                  />
                )}
              />
              {!carrierMode && (
                <TextInput
                  label="Número de bultos"
                  inputMode="numeric"
                  maxLength={6}
                  {...form.register('numero_de_bultos')}
                  error={fieldError(form, 'numero_de_bultos')}
                />
              )}
              {carrierMode && (
                <Controller
                  control={form.control}
                  name="fecha_de_entrega_al_transportista"
                  render={({ field }) => (
                    <DayInput
                      label="Entrega de los bienes al transportista"
                      maxDate={today}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={fieldError(form, 'fecha_de_entrega_al_transportista')}
                    />
                  )}
                />
              )}
            </SimpleGrid>
            {carrierMode && (
              <Text size="xs" c="dimmed">
                Guía del transportista: la emite la empresa que lleva la carga en sus vehículos; lleva placa, conductor y destinatario.
              </Text>
            )}
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Point form={form} name="punto_de_partida" title="Partida" />
            <Point form={form} name="punto_de_llegada" title="Llegada" />
          </Stack>
        </Paper>
        <GuideParties form={form} />
        <GuideItems form={form} />
        <Textarea
          label="Observaciones"
          maxLength={500}
          autosize
          minRows={1}
          {...form.register('observaciones')}
          error={fieldError(form, 'observaciones')}
        />
        <IssueAlerts problems={problems} failure={failure} />
        <Group>
          <Button type="submit" size="md" loading={create.isPending}>
            Crear Documento
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
