import { ActionIcon, Button, Group, Loader, NumberInput, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, type Control, type FieldErrors } from 'react-hook-form';
import { PRICING_MESSAGES, PRODUCT_TYPE_LABELS, PRODUCT_TYPES, type NewShipment, type Quote, type QuoteLineAnswer } from '@tramo/domain';
import { ApiError } from '../../../lib/api.ts';
import { formatMoney, formatNumber, formatWeight } from '../../../lib/format.ts';
import type { ShipmentFormValues } from './shipment-form.ts';
import { ActionsTh } from '../../../components/ui/ActionsTh.tsx';

export type LineQuoteState =
  { state: 'idle' } | { state: 'loading' } | { state: 'ok'; quote: Quote } | { state: 'error'; error: unknown; outOfRange: boolean };

const classOptions = PRODUCT_TYPES.map((t) => ({ value: t, label: PRODUCT_TYPE_LABELS[t] }));

/** A line as POST /quotes priced it: its chargeable basis and amount, the figure the shipment stores. */
function TariffCell({ line }: { line: QuoteLineAnswer }) {
  const basis = line.article
    ? `${line.packages} × ${formatMoney(line.article.unitPrice)}`
    : `${formatWeight(line.chargeableKg)}${line.basis === 'volumen' ? ' (volumen)' : ''} × ${formatNumber(line.tier?.factor_per_kg ?? 0)}`;
  return (
    <div>
      <Text size="sm" fw={600} data-testid="line-price">
        {formatMoney(line.amount)}
      </Text>
      <Text size="xs" c="dimmed">
        {basis}
      </Text>
    </div>
  );
}

function QuoteCell({ quote, tariff }: { quote: LineQuoteState; tariff: QuoteLineAnswer | null }) {
  if (tariff && quote.state !== 'error') return <TariffCell line={tariff} />;
  switch (quote.state) {
    case 'idle':
      return (
        <Text c="dimmed" size="sm">
          —
        </Text>
      );
    case 'loading':
      return <Loader size="xs" aria-label="Cotizando" />;
    case 'ok':
      return (
        <div>
          <Text size="sm" fw={600} data-testid="line-price">
            {formatMoney(quote.quote.price)}
          </Text>
          <Text size="xs" c="dimmed">
            {formatWeight(quote.quote.billableWeightKg)} × {formatNumber(quote.quote.factorPerKg)}
          </Text>
        </div>
      );
    case 'error':
      // The spec's 'Peso fuera de los rangos configurados.' is said on the line's weight, where it is corrected.
      if (quote.outOfRange) {
        return (
          <Text c="dimmed" size="sm">
            —
          </Text>
        );
      }
      return (
        <Text size="xs" c="red" role="alert">
          {quote.error instanceof ApiError ? quote.error.message : PRICING_MESSAGES.quoteFailed}
        </Text>
      );
  }
}

interface WeightLinesProps {
  control: Control<ShipmentFormValues, unknown, NewShipment>;
  errors: FieldErrors<ShipmentFormValues>;
  quotes: LineQuoteState[];
  /** Per line, its price from POST /quotes (basis, chargeable kg, article): shown instead of the weight-only quote. */
  tariffLines?: readonly (QuoteLineAnswer | null)[];
}

/** Class and weight per package; one line is always kept; each line shows its own quote. */
/** 2 decimals, rounded half up on the decimal digits (`1.005` → 1.01, where `* 100` would give 1.00). */
const roundKg = (kg: number) => Number(`${Math.round(Number(`${kg}e2`))}e-2`);

export function WeightLines({ control, errors, quotes, tariffLines = [] }: WeightLinesProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'lines' });
  const outOfRange = (i: number) => {
    const q = quotes[i];
    return q?.state === 'error' && q.outOfRange;
  };
  const linesError = errors.lines?.root?.message ?? errors.lines?.message;

  return (
    <Stack gap="xs">
      <Paper withBorder>
        <Table verticalSpacing={4} striped={false}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>#</Table.Th>
              <Table.Th>Categoría</Table.Th>
              <Table.Th w={150}>Peso (kg)</Table.Th>
              <Table.Th w={130}>Precio</Table.Th>
              <ActionsTh w={44} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((field, i) => (
              <Table.Tr key={field.id}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>
                  <Controller
                    control={control}
                    name={`lines.${i}.productType`}
                    render={({ field: f }) => (
                      <Select
                        aria-label={`Categoría de la línea ${i + 1}`}
                        size="xs"
                        data={classOptions}
                        value={f.value}
                        onChange={(v) => v && f.onChange(v)}
                        error={errors.lines?.[i]?.productType?.message}
                      />
                    )}
                  />
                </Table.Td>
                <Table.Td>
                  <Controller
                    control={control}
                    name={`lines.${i}.weightKg`}
                    render={({ field: f }) => (
                      <NumberInput
                        aria-label={`Peso de la línea ${i + 1}`}
                        size="xs"
                        min={0}
                        step={0.01}
                        decimalSeparator="."
                        allowNegative={false}
                        hideControls
                        ref={f.ref}
                        value={f.value}
                        onChange={(v) => f.onChange(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
                        // The spec rounds weights to 2 decimals (3.456 → 3.46), it does not cut them.
                        onBlur={() => {
                          if (typeof f.value === 'number') f.onChange(roundKg(f.value));
                          f.onBlur();
                        }}
                        error={errors.lines?.[i]?.weightKg?.message ?? (outOfRange(i) ? PRICING_MESSAGES.outsideRanges : undefined)}
                      />
                    )}
                  />
                </Table.Td>
                <Table.Td>
                  <QuoteCell quote={quotes[i] ?? { state: 'idle' }} tariff={tariffLines[i] ?? null} />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Quitar línea ${i + 1}`}
                    disabled={fields.length === 1}
                    onClick={() => remove(i)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <Group justify="space-between">
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => append({ productType: 'liviano', weightKg: '' }, { focusName: `lines.${fields.length}.weightKg` })}
        >
          Agregar línea
        </Button>
        {linesError && (
          <Text size="sm" c="red">
            {linesError}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
