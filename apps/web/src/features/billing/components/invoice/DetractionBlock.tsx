import { Checkbox, Group, Paper, Select, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  centsToString,
  DETRACTION_FREIGHT,
  detractionAmountCents,
  detractionApplies,
  FREIGHT_TRIP_TEXT_MAX,
  previewTotals,
  typedCents,
  type InvoiceFormValues,
} from '@tramo/domain';
import { formatMoney } from '../../../../lib/format.ts';
import { MEANS_OPTIONS } from './options.ts';
import { fieldError } from '../../../../lib/forms.ts';

/**
 * The SPOT block of a freight factura above S/ 400: service 027 and 4 % are fixed, the amount is
 * 4 % of the greater of the total and the service's reference value, rounded to whole soles; the
 * user adds the Banco de la Nación account and means, and the trip (operation 1004): origin and
 * destination ubigeo and address, the detail and the three reference values ('Facturar envíos'
 * fills them from the shipments' branches and the route; they can be typed or adjusted here).
 */
export function DetractionBlock({ form }: { form: UseFormReturn<InvoiceFormValues> }) {
  const [type, items, enabled, serviceReference] = useWatch({
    control: form.control,
    name: ['type', 'items', 'detraction.enabled', 'detraction.trip.serviceReference'],
  });
  const totalCents = previewTotals(items ?? []).totalCents;
  const applies = detractionApplies(type, totalCents);
  const referenceCents = typedCents(serviceReference ?? '');
  const expected = detractionAmountCents(totalCents, referenceCents);

  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb={enabled ? 'sm' : 0}>
        <Title order={2} size="h4">
          Detracción
        </Title>
        <Controller
          control={form.control}
          name="detraction.enabled"
          render={({ field }) => (
            <Checkbox
              label="Operación sujeta a detracción (transporte de carga)"
              checked={field.value}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                field.onChange(on);
                if (on) {
                  form.setValue('detraction.percent', String(DETRACTION_FREIGHT.percent));
                  form.setValue('detraction.amount', centsToString(expected));
                }
              }}
            />
          )}
        />
      </Group>
      {!enabled && applies && (
        <Text size="sm" c="orange.8">
          Esta factura supera S/ 400.00: el transporte de carga está sujeto a detracción del 4 % ({formatMoney(expected / 100)}).
        </Text>
      )}
      {enabled && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <TextInput label="Código del servicio" value={`${DETRACTION_FREIGHT.serviceCode} · Transporte de carga`} readOnly />
          <TextInput
            label="Porcentaje (%)"
            inputMode="decimal"
            {...form.register('detraction.percent')}
            error={fieldError(form, 'detraction.percent')}
          />
          <TextInput
            label="Monto de la detracción"
            inputMode="decimal"
            description={`4 % ${referenceCents !== null && referenceCents > totalCents ? 'del valor referencial' : 'del total'}, redondeado: ${formatMoney(expected / 100)}`}
            {...form.register('detraction.amount')}
            error={fieldError(form, 'detraction.amount')}
          />
          <TextInput
            label="Cuenta de detracciones (Banco de la Nación)"
            inputMode="numeric"
            maxLength={20}
            {...form.register('detraction.bankAccount')}
            error={fieldError(form, 'detraction.bankAccount')}
          />
          <Controller
            control={form.control}
            name="detraction.paymentMeans"
            render={({ field }) => (
              <Select
                label="Medio de pago"
                placeholder="Elige"
                data={MEANS_OPTIONS}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
                error={fieldError(form, 'detraction.paymentMeans')}
                comboboxProps={{ width: 360 }}
              />
            )}
          />
        </SimpleGrid>
      )}
      {enabled && (
        <>
          <Text size="sm" fw={600} mt="md" mb={4}>
            Viaje (operación 1004)
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <TextInput
              label="Ubigeo de origen"
              inputMode="numeric"
              maxLength={6}
              {...form.register('detraction.trip.originUbigeo')}
              error={fieldError(form, 'detraction.trip.originUbigeo')}
            />
            <TextInput
              label="Dirección de origen"
              maxLength={FREIGHT_TRIP_TEXT_MAX}
              {...form.register('detraction.trip.originAddress')}
              error={fieldError(form, 'detraction.trip.originAddress')}
            />
            <TextInput
              label="Ubigeo de destino"
              inputMode="numeric"
              maxLength={6}
              {...form.register('detraction.trip.destinationUbigeo')}
              error={fieldError(form, 'detraction.trip.destinationUbigeo')}
            />
            <TextInput
              label="Dirección de destino"
              maxLength={FREIGHT_TRIP_TEXT_MAX}
              {...form.register('detraction.trip.destinationAddress')}
              error={fieldError(form, 'detraction.trip.destinationAddress')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" mt="sm">
            <TextInput
              label="Detalle del viaje"
              maxLength={FREIGHT_TRIP_TEXT_MAX}
              {...form.register('detraction.trip.detail')}
              error={fieldError(form, 'detraction.trip.detail')}
            />
            <TextInput
              label="Valor referencial del servicio"
              inputMode="decimal"
              {...form.register('detraction.trip.serviceReference', {
                onChange: (e: { target: { value: string } }) =>
                  form.setValue('detraction.amount', centsToString(detractionAmountCents(totalCents, typedCents(e.target.value)))),
              })}
              error={fieldError(form, 'detraction.trip.serviceReference')}
            />
            <TextInput
              label="Valor referencial de la carga efectiva"
              inputMode="decimal"
              {...form.register('detraction.trip.effectiveLoadReference')}
              error={fieldError(form, 'detraction.trip.effectiveLoadReference')}
            />
            <TextInput
              label="Valor referencial de la carga útil nominal"
              inputMode="decimal"
              {...form.register('detraction.trip.nominalLoadReference')}
              error={fieldError(form, 'detraction.trip.nominalLoadReference')}
            />
          </SimpleGrid>
        </>
      )}
    </Paper>
  );
}
