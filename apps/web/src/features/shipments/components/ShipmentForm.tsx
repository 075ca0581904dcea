import { useEffect, useId, useRef, useState } from 'react';
import { Alert, Badge, Button, Grid, Group, Paper, PasswordInput, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type Path } from 'react-hook-form';
import type { z } from 'zod';
import { Link, useNavigate } from 'react-router';
import {
  customerName,
  newShipmentSchema,
  SHIPMENT_MESSAGES,
  shipmentUpdateSchema,
  type Customer,
  type NewShipment,
  canManageArea,
} from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { formatMoney, formatWeight } from '../../../lib/format.ts';
import { applyServerErrors, focusFirstInvalid } from '../../../lib/forms.ts';
import { MissingHint } from '../../../components/ui/MissingHint.tsx';
import { notify } from '../../../lib/notify.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { BranchSelect, useBranches } from '../../branches/index.ts';
import { CustomerPicker } from '../../customers/index.ts';
import { useCreateShipment } from '../api/create-shipment.ts';
import { useUpdateShipment } from '../api/update-shipment.ts';
import type { Shipment } from '../types.ts';
import { emptyShipmentForm, formFromShipment, recipientDocInput, type ShipmentFormValues } from './shipment-form.ts';
import { useShipmentQuote } from './useShipmentQuote.ts';
import { WeightLines } from './WeightLines.tsx';
import { TariffSection, useTariffBreakdown } from './TariffSection.tsx';
import { WhoPaysSection } from './WhoPaysSection.tsx';

const SERVER_FIELDS = [
  'senderName',
  'recipientDoc',
  'recipientFirstName',
  'recipientLastName',
  'recipientPhone',
  'recipientEmail',
  'originBranchId',
  'destinationBranchId',
  'description',
  'secretCode',
  'payer',
  'paymentMoment',
  'payerDocNumber',
] as const;

/** Each field as the line under 'Crear envío' names it ('Falta: destino, clave secreta'), in the form's order. */
const MISSING_LABELS = {
  senderName: 'remitente',
  senderCustomerId: 'remitente',
  recipientDoc: 'DNI/RUC',
  recipientFirstName: 'nombres',
  recipientLastName: 'apellidos',
  recipientPhone: 'celular',
  recipientEmail: 'correo',
  originBranchId: 'origen',
  destinationBranchId: 'destino',
  lines: 'peso',
  declaredValue: 'valor declarado',
  insured: 'seguro',
  surcharges: 'recargos',
  payer: 'quién paga',
  paymentMoment: 'momento de pago',
  payerDocType: 'datos del tercero',
  payerDocNumber: 'datos del tercero',
  payerName: 'datos del tercero',
  payerCustomerId: 'datos del tercero',
  description: 'descripción',
  secretCode: 'clave secreta',
};

/** The new-shipment form, and the same form pre-filled to edit a shipment still in Creado. */
export function ShipmentForm({ editing, onCreated }: { editing: Shipment | null; onCreated?(s: Shipment): void }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const anyBranch = canManageArea(user, 'allBranches');
  const branches = useBranches();
  const create = useCreateShipment();
  const update = useUpdateShipment();
  const [alert, setAlert] = useState<string | null>(null);

  // The domain schema checks the form (spec section 5 messages); edit mode keeps the secret optional.
  // Its input type is `unknown` (it preprocesses the spec's payload variants), hence the cast.
  const schema = (editing ? shipmentUpdateSchema : newShipmentSchema) as unknown as z.ZodType<NewShipment, ShipmentFormValues>;
  const form = useForm<ShipmentFormValues, unknown, NewShipment>({
    // Issue 38: a field says what is wrong with it as soon as it is left, not only after a submit.
    mode: 'onTouched',
    resolver: zodResolver(schema),
    defaultValues: editing ? formFromShipment(editing) : emptyShipmentForm(anyBranch ? null : user.branchId),
  });
  const { errors } = form.formState;
  const [originBranchId, destinationBranchId, lines, description, senderCustomerId] = useWatch({
    control: form.control,
    name: ['originBranchId', 'destinationBranchId', 'lines', 'description', 'senderCustomerId'],
  });

  const quote = useShipmentQuote(originBranchId, destinationBranchId, lines);
  const breakdown = useTariffBreakdown(form.control);
  const hasWeight = lines.some((l) => typeof l.weightKg === 'number' && l.weightKg > 0);
  const ready = Boolean(originBranchId && destinationBranchId && hasWeight);
  const saving = create.isPending || update.isPending;
  const badLines = quote.quotes.flatMap((q, i) => (q.state === 'error' ? [i] : []));
  // Only the quote in flight holds the button: the price it waits for is the one the counter confirms.
  const waitingForQuote = ready && quote.pending;
  const hintId = useId();

  const originName = branches.data?.find((b) => b.id === originBranchId)?.name ?? user.branchName ?? '—';

  const [sender, setSender] = useState<Customer | null>(null);
  const [recipient, setRecipient] = useState<Customer | null>(null);
  const pickSender = (c: Customer | null) => {
    setSender(c);
    // Clearing the search keeps the name typed so far; only the customer link goes.
    form.setValue('senderCustomerId', c?.id ?? null);
    if (c) form.setValue('senderName', customerName(c), { shouldValidate: form.formState.isSubmitted });
  };
  const pickRecipient = (c: Customer | null) => {
    setRecipient(c);
    if (!c) return;
    const opts = { shouldValidate: form.formState.isSubmitted };
    form.setValue('recipientDoc', recipientDocInput(c.doc_number), opts);
    form.setValue('recipientFirstName', c.firstName, opts);
    form.setValue('recipientLastName', c.lastName ?? '', opts);
    if (!editing) {
      form.setValue('recipientPhone', c.phone ?? '', opts);
      form.setValue('recipientEmail', c.email ?? '', opts);
    }
  };

  // The first field (the sender search) takes the focus; the picker does not forward a ref.
  const firstFieldRef = useRef<HTMLDivElement>(null);
  useEffect(() => firstFieldRef.current?.querySelector('input')?.focus(), []);

  const onError = (err: unknown, fallback: string) => {
    const knownFields = [...SERVER_FIELDS, ...lines.map((_, i) => `lines.${i}.weightKg` as Path<ShipmentFormValues>)];
    const message = applyServerErrors(err, form.setError, knownFields, fallback);
    setAlert(message);
    notify.error(message ?? errorMessage(err, fallback));
  };

  const onSubmit = form.handleSubmit(
    (values) => {
      if (quote.pending) return;
      // The line's message is on its weight ('Peso fuera de los rangos configurados.'): take the counter there.
      const firstBad = badLines[0];
      if (firstBad !== undefined) {
        form.setFocus(`lines.${firstBad}.weightKg`);
        return;
      }
      setAlert(null);
      if (editing) {
        update.mutate(
          { ...values, id: editing.id },
          {
            onSuccess: (s) => {
              notify.success(`Envío ${s.code} actualizado.`);
              void navigate(`/shipments/${s.id}`);
            },
            onError: (err) => onError(err, 'No se pudo guardar el envío.'),
          },
        );
        return;
      }
      create.mutate(values, {
        onSuccess: (s) => {
          notify.success(`Envío ${s.code} registrado.`);
          onCreated?.(s);
        },
        onError: (err) => onError(err, SHIPMENT_MESSAGES.createFailed),
      });
    },
    // The submit event targets the form itself (its currentTarget is gone once the resolver has answered).
    (_, event) => focusFirstInvalid(event?.target instanceof HTMLFormElement ? event.target : null),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      {alert && (
        <Alert color="red" variant="light" role="alert" mb="sm" title={editing ? undefined : SHIPMENT_MESSAGES.createFailed}>
          {alert}
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="xs">
                Remitente
              </Title>
              <Stack gap="xs">
                <div ref={firstFieldRef}>
                  <CustomerPicker label="Buscar remitente" placeholder="Nombre o documento del cliente" value={sender} onChange={pickSender} />
                </div>
                <TextInput
                  label="Nombre del remitente"
                  withAsterisk
                  {...form.register('senderName', {
                    // Typing a name by hand means the sender is not (or no longer) a picked customer.
                    onChange: () => {
                      form.setValue('senderCustomerId', null);
                      setSender(null);
                    },
                  })}
                  rightSection={
                    senderCustomerId ? (
                      <Badge size="xs" variant="light">
                        Cliente
                      </Badge>
                    ) : undefined
                  }
                  rightSectionWidth={70}
                  error={errors.senderName?.message}
                />
              </Stack>
            </Paper>
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="xs">
                Destinatario
              </Title>
              <Stack gap="xs">
                <CustomerPicker label="Buscar destinatario" placeholder="Nombre o documento del cliente" value={recipient} onChange={pickRecipient} />
                <Controller
                  control={form.control}
                  name="recipientDoc"
                  render={({ field }) => (
                    <TextInput
                      label="DNI/RUC del destinatario"
                      withAsterisk
                      inputMode="numeric"
                      ref={field.ref}
                      value={field.value}
                      onChange={(e) => field.onChange(recipientDocInput(e.currentTarget.value))}
                      onBlur={field.onBlur}
                      error={errors.recipientDoc?.message}
                    />
                  )}
                />
                <Group grow align="flex-start">
                  <TextInput label="Nombres" withAsterisk {...form.register('recipientFirstName')} error={errors.recipientFirstName?.message} />
                  <TextInput label="Apellidos" withAsterisk {...form.register('recipientLastName')} error={errors.recipientLastName?.message} />
                </Group>
                {!editing && (
                  // Optional: the recipient gets the tracking link at each step (issue 18).
                  <Group grow align="flex-start">
                    <TextInput
                      label="Celular (WhatsApp)"
                      inputMode="tel"
                      placeholder="Opcional"
                      {...form.register('recipientPhone')}
                      error={errors.recipientPhone?.message}
                    />
                    <TextInput
                      label="Correo"
                      type="email"
                      placeholder="Opcional"
                      {...form.register('recipientEmail')}
                      error={errors.recipientEmail?.message}
                    />
                  </Group>
                )}
              </Stack>
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder p="md">
              <Group grow align="flex-start">
                {anyBranch ? (
                  <Controller
                    control={form.control}
                    name="originBranchId"
                    render={({ field }) => (
                      <BranchSelect
                        label="Origen"
                        withAsterisk
                        searchable
                        placeholder="Seleccione origen"
                        ref={field.ref}
                        onBlur={field.onBlur}
                        value={field.value}
                        onChange={(v) => {
                          field.onChange(v ? Number(v) : null);
                          // A new origin may equal the chosen destination: clear it rather than send an impossible route.
                          if (v && Number(v) === form.getValues('destinationBranchId')) form.setValue('destinationBranchId', null);
                        }}
                        error={errors.originBranchId?.message}
                      />
                    )}
                  />
                ) : (
                  <div>
                    <Text size="sm" fw={500} mb={4}>
                      Origen
                    </Text>
                    <Badge size="lg" variant="light" color="gray" tt="none" data-testid="fixed-origin">
                      Agencia: {originName}
                    </Badge>
                  </div>
                )}
                <Controller
                  control={form.control}
                  name="destinationBranchId"
                  render={({ field }) => (
                    <BranchSelect
                      label="Destino"
                      withAsterisk
                      searchable
                      placeholder="Seleccione destino"
                      ref={field.ref}
                      onBlur={field.onBlur}
                      value={field.value}
                      exclude={originBranchId}
                      onChange={(v) => field.onChange(v ? Number(v) : null)}
                      error={errors.destinationBranchId?.message}
                    />
                  )}
                />
              </Group>
            </Paper>
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="xs">
                Líneas de peso
              </Title>
              <WeightLines control={form.control} errors={errors} quotes={quote.quotes} tariffLines={breakdown.lineQuotes} />
              <Group justify="flex-end" mt="sm" gap="xl">
                <Text size="sm" c="dimmed">
                  Peso total: {formatWeight(quote.totalWeightKg)}
                </Text>
                <Text fw={700} size="lg" data-testid="shipment-total" aria-live="polite">
                  Total: {formatMoney(breakdown.quote?.total ?? quote.totalPrice)}
                  {quote.pending && (
                    <Text span size="xs" c="dimmed" fw={400}>
                      {' '}
                      (cotizando…)
                    </Text>
                  )}
                </Text>
              </Group>
            </Paper>
            <TariffSection control={form.control} breakdown={breakdown} />
            {!editing && (
              <WhoPaysSection form={form} total={ready ? (breakdown.quote?.total ?? quote.totalPrice) : null} weightKg={quote.totalWeightKg} />
            )}
            <Paper withBorder p="md">
              <Stack gap="xs">
                <Textarea
                  label="Descripción"
                  autosize
                  minRows={2}
                  maxRows={4}
                  maxLength={500}
                  description={`${description.length}/500`}
                  {...form.register('description')}
                  error={errors.description?.message}
                />
                <PasswordInput
                  label="Clave secreta"
                  description={
                    editing ? 'Déjala vacía para mantener la actual' : 'La pide el destinatario al recoger (4 a 12: letras, números, - _ .)'
                  }
                  withAsterisk={!editing}
                  maxLength={12}
                  autoComplete="new-password"
                  {...form.register('secretCode')}
                  error={errors.secretCode?.message}
                />
              </Stack>
            </Paper>
            <Group justify="flex-end">
              {editing && (
                <Button component={Link} to={`/shipments/${editing.id}`} variant="default">
                  Cancelar
                </Button>
              )}
              <Button type="submit" size="md" loading={saving} disabled={waitingForQuote} aria-describedby={hintId}>
                {editing ? 'Guardar cambios' : 'Crear envío'}
              </Button>
            </Group>
            <MissingHint
              id={hintId}
              control={form.control}
              schema={schema}
              labels={MISSING_LABELS}
              more={badLines.map((i) => `un peso válido en la línea ${i + 1}`)}
              waiting={waitingForQuote ? 'Esperando la cotización del precio…' : null}
            />
          </Stack>
        </Grid.Col>
      </Grid>
    </form>
  );
}
