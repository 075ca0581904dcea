import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  checkGuide,
  DEFAULT_SERIES,
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
        <TextInput label={`Ubigeo de ${title.toLowerCase()}`} inputMode="numeric" maxLength={6} {...form.register(`${name}.ubigeo`)} />
        <TextInput label={`Dirección de ${title.toLowerCase()}`} maxLength={200} {...form.register(`${name}.direccion`)} />
        <TextInput
          label={`Establecimiento SUNAT de ${title.toLowerCase()}`}
          maxLength={4}
          placeholder="0000"
          {...form.register(`${name}.codigo_establecimiento_sunat`)}
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
 * section 5 listed under 'Corrige:' before sending. `initial` comes pre-filled for a transport's load;
 * `issuePath` then issues it for that transport (its shipments are linked to the guide).
 */
export function GuideForm({ initial, issuePath = '/guides/create-emit' }: { initial?: GuideValues; issuePath?: string }) {
  const today = limaDay(new Date());
  const start = initial ?? emptyGuide('09', today);
  const form = useForm<GuideValues>({ defaultValues: start });
  const [type, issueDate] = useWatch({ control: form.control, name: ['type', 'fecha_de_emision'] });
  const [problems, setProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [issued, setIssued] = useState<IssueResult | null>(null);
  const uniqueCode = useRef(newUniqueCode());
  const create = useCreateEmit<ReturnType<typeof guidePayloadOf>>(issuePath);

  const submit = () => {
    const payload = guidePayloadOf(form.getValues(), uniqueCode.current);
    const check = checkGuide(payload, { today });
    setFailure(null);
    setProblems(check.ok ? [] : check.problems);
    if (!check.ok) return;
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
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
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
              <TextInput label="Serie" maxLength={4} {...form.register('serie', { setValueAs: (v: string) => v.toUpperCase() })} />
              <Controller
                control={form.control}
                name="fecha_de_emision"
                render={({ field }) => <DayInput label="Fecha de emisión" maxDate={today} value={field.value} onChange={field.onChange} />}
              />
              <Controller
                control={form.control}
                name="fecha_de_inicio_de_traslado"
                render={({ field }) => (
                  <DayInput label="Inicio del traslado" minDate={issueDate || undefined} value={field.value} onChange={field.onChange} />
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
                  />
                )}
              />
              {!carrierMode && <TextInput label="Número de bultos" inputMode="numeric" maxLength={6} {...form.register('numero_de_bultos')} />}
              {carrierMode && (
                <Controller
                  control={form.control}
                  name="fecha_de_entrega_al_transportista"
                  render={({ field }) => (
                    <DayInput label="Entrega de los bienes al transportista" maxDate={today} value={field.value} onChange={field.onChange} />
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
        <Textarea label="Observaciones" maxLength={500} autosize minRows={1} {...form.register('observaciones')} />
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
