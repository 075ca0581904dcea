import { Alert, Checkbox, Chip, Group, NumberInput, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Controller, useWatch, type Control } from 'react-hook-form';
import { CHARGE_BASES, CHARGE_BASIS_LABELS, type NewShipment, type TariffQuoteAnswer } from '@tramo/domain';
import { ApiError } from '../../../lib/api.ts';
import { formatMoney, formatWeight } from '../../../lib/format.ts';
import { useArticles, useSurcharges } from '../api/get-surcharges.ts';
import { useTariffQuote, type TariffQuoteRequest } from '../api/post-tariff-quote.ts';
import { roundWeight, type ShipmentFormValues } from './shipment-form.ts';

type FormControl = Control<ShipmentFormValues, unknown, NewShipment>;

const basisOptions = CHARGE_BASES.map((b) => ({ value: b, label: CHARGE_BASIS_LABELS[b] }));
const numberOrUndefined = (v: number | '' | undefined) => (typeof v === 'number' ? v : undefined);

/**
 * The form's whole price from POST /quotes (issue 34), asked 300 ms after the last change: the
 * server's own breakdown, so the form shows what the shipment will store.
 */
export function useTariffBreakdown(control: FormControl) {
  const [originBranchId, destinationBranchId, senderCustomerId, lines, declaredValue, insured, surcharges] = useWatch({
    control,
    name: ['originBranchId', 'destinationBranchId', 'senderCustomerId', 'lines', 'declaredValue', 'insured', 'surcharges'],
  });
  const priced = lines.filter((l) => typeof l.weightKg === 'number' && l.weightKg > 0);
  const request: TariffQuoteRequest | null =
    originBranchId && destinationBranchId && priced.length
      ? {
          originBranchId,
          destinationBranchId,
          senderCustomerId,
          lines: priced.map((l) => ({
            productType: l.productType,
            weightKg: roundWeight(l.weightKg as number),
            packages: numberOrUndefined(l.packages),
            lengthCm: numberOrUndefined(l.lengthCm),
            widthCm: numberOrUndefined(l.widthCm),
            heightCm: numberOrUndefined(l.heightCm),
            basis: l.basis ?? 'peso',
            articleId: l.articleId ?? undefined,
          })),
          declaredValue: numberOrUndefined(declaredValue),
          insured,
          surcharges,
        }
      : null;
  const [settled] = useDebouncedValue(JSON.stringify(request), 300);
  const query = useTariffQuote(JSON.parse(settled) as TariffQuoteRequest | null);
  const quote = request ? query.data : undefined;
  // Each form line's own priced line (lines without weight are not sent), once the answer is for these lines.
  const current = quote && settled === JSON.stringify(request) ? quote : undefined;
  let next = 0;
  const lineQuotes = lines.map((l) => (typeof l.weightKg === 'number' && l.weightKg > 0 ? (current?.lines[next++] ?? null) : null));
  return { quote, error: request ? query.error : null, pending: query.isFetching, lineQuotes };
}

function LineSize({ control, index, articles }: { control: FormControl; index: number; articles: { value: string; label: string }[] }) {
  const basis = useWatch({ control, name: `lines.${index}.basis` });
  const sizeField = (name: 'packages' | 'lengthCm' | 'widthCm' | 'heightCm', label: string) => (
    <Controller
      control={control}
      name={`lines.${index}.${name}`}
      render={({ field }) => (
        <NumberInput
          label={label}
          aria-label={`${label} línea ${index + 1}`}
          w={90}
          min={name === 'packages' ? 1 : 0}
          allowDecimal={false}
          hideControls
          value={field.value ?? ''}
          onChange={(v) => field.onChange(typeof v === 'number' ? v : '')}
          onBlur={field.onBlur}
        />
      )}
    />
  );
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <Text size="sm" fw={500} w={60} pb={6}>
        Línea {index + 1}
      </Text>
      {sizeField('packages', 'Bultos')}
      {sizeField('lengthCm', 'Largo cm')}
      {sizeField('widthCm', 'Ancho cm')}
      {sizeField('heightCm', 'Alto cm')}
      <Controller
        control={control}
        name={`lines.${index}.basis`}
        render={({ field }) => (
          <Select
            label="Cobrar por"
            aria-label={`Cobrar por línea ${index + 1}`}
            w={120}
            data={basisOptions}
            allowDeselect={false}
            value={field.value ?? 'peso'}
            onChange={(v) => field.onChange(v ?? 'peso')}
          />
        )}
      />
      {basis === 'articulo' && (
        <Controller
          control={control}
          name={`lines.${index}.articleId`}
          render={({ field }) => (
            <Select
              label="Artículo"
              aria-label={`Artículo línea ${index + 1}`}
              w={180}
              data={articles}
              placeholder="Elige un artículo"
              value={field.value ? String(field.value) : null}
              onChange={(v) => field.onChange(v ? Number(v) : null)}
            />
          )}
        />
      )}
    </Group>
  );
}

function Breakdown({ quote }: { quote: TariffQuoteAnswer }) {
  return (
    <Table verticalSpacing={2} data-testid="price-breakdown">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Concepto</Table.Th>
          <Table.Th ta="right">Importe</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {quote.lines.map((l, i) => (
          <Table.Tr key={`l${i}`}>
            <Table.Td>
              <Text size="sm">{quote.components[i]?.description}</Text>
              <Text size="xs" c="dimmed">
                Real {formatWeight(l.realKg)} · Volumétrico {l.volumetricKg === null ? '—' : formatWeight(l.volumetricKg)} · Cobrable{' '}
                {formatWeight(l.chargeableKg)}
                {l.article ? ` · ${formatMoney(l.article.unitPrice)} c/u` : l.tier ? ` · S/ ${l.tier.factor_per_kg} por kg` : ''}
              </Text>
            </Table.Td>
            <Table.Td ta="right">{formatMoney(l.amount)}</Table.Td>
          </Table.Tr>
        ))}
        {quote.components.slice(quote.lines.length).map((c, i) => (
          <Table.Tr key={`c${i}`}>
            <Table.Td>
              <Text size="sm">{c.description}</Text>
            </Table.Td>
            <Table.Td ta="right">{formatMoney(c.amount)}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td fw={700}>Total</Table.Td>
          <Table.Td ta="right" fw={700} data-testid="breakdown-total">
            {formatMoney(quote.total)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/**
 * Issue 34's part of the form, kept apart from the parties and the weight lines: each line's
 * bultos, size and basis, the declared value and insurance, the surcharges, and the breakdown.
 */
export function TariffSection({ control, breakdown }: { control: FormControl; breakdown: ReturnType<typeof useTariffBreakdown> }) {
  const lines = useWatch({ control, name: 'lines' });
  const surcharges = useSurcharges();
  const articles = useArticles();
  const articleOptions = (articles.data ?? []).filter((a) => a.active).map((a) => ({ value: String(a.id), label: `${a.name} (${a.unit})` }));
  // A weight outside the tiers or a route without a table is said once, under the weight lines.
  const saidByLines = breakdown.error instanceof ApiError && (breakdown.error.code === 'OUT_OF_RANGE' || breakdown.error.code === 'NO_PRICE_TABLE');
  const error = saidByLines
    ? null
    : breakdown.error instanceof ApiError
      ? breakdown.error.message
      : breakdown.error
        ? 'No se pudo cotizar el envío.'
        : null;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="xs">
        Bultos, recargos y seguro
      </Title>
      <Stack gap="sm">
        {lines.map((_, i) => (
          <LineSize key={i} control={control} index={i} articles={articleOptions} />
        ))}
        <Group align="flex-end" gap="md">
          <Controller
            control={control}
            name="declaredValue"
            render={({ field }) => (
              <NumberInput
                label="Valor declarado (S/)"
                w={170}
                min={0}
                decimalScale={2}
                hideControls
                placeholder="Sin declarar"
                value={field.value}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : '')}
                onBlur={field.onBlur}
              />
            )}
          />
          <Controller
            control={control}
            name="insured"
            render={({ field }) => (
              <Checkbox label="Asegurar envío" mb={8} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
            )}
          />
        </Group>
        <Controller
          control={control}
          name="surcharges"
          render={({ field }) => (
            <Chip.Group multiple value={field.value} onChange={field.onChange}>
              <Group gap="xs" aria-label="Recargos">
                {(surcharges.data ?? [])
                  .filter((s) => s.active)
                  .map((s) => (
                    <Chip key={s.code} value={s.code} size="sm">
                      {s.description} ({s.fixedAmount !== null ? formatMoney(s.fixedAmount) : `${s.percent} %`})
                    </Chip>
                  ))}
              </Group>
            </Chip.Group>
          )}
        />
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {breakdown.quote && !error && <Breakdown quote={breakdown.quote} />}
      </Stack>
    </Paper>
  );
}
