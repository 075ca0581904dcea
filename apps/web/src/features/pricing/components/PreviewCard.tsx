import { useMemo, useState } from 'react';
import { Group, NumberInput, Paper, Select, Table, Text, Title } from '@mantine/core';
import {
  centsToNumber,
  distinctFactors,
  PREVIEW_DEFAULT_PAGE_SIZE,
  PREVIEW_DEFAULTS,
  PREVIEW_MAX_KG,
  PREVIEW_PAGE_SIZES,
  previewRange,
  previewRows,
  type WeightTier,
} from '@tramo/domain';
import { Pager } from '../../../components/ui/Pager.tsx';
import { useClientPaging } from '../../../components/ui/useClientPaging.ts';
import { formatMoney } from '../../../lib/format.ts';
import { formatFactor } from './format.ts';

const num = (v: string | number): number | null => (v === '' || v === '-' ? null : Number(v));

/** Prices of the tiers on screen, weight by weight, from the same function the API quotes with. */
export function PreviewCard({ tiers }: { tiers: WeightTier[] }) {
  const [fromKg, setFromKg] = useState<number | ''>(PREVIEW_DEFAULTS.fromKg);
  const [toKg, setToKg] = useState<number | ''>(PREVIEW_DEFAULTS.toKg);
  const [factor, setFactor] = useState<string | null>(null);
  const [minPrice, setMinPrice] = useState<number | null>(null);
  const [maxPrice, setMaxPrice] = useState<number | null>(null);

  const range = previewRange(fromKg === '' ? Number.NaN : fromKg, toKg === '' ? Number.NaN : toKg);
  const { fromKg: rangeFrom, toKg: rangeTo } = range;
  const factors = useMemo(() => distinctFactors(tiers), [tiers]);
  const rows = useMemo(
    () => previewRows(tiers, { fromKg: rangeFrom, toKg: rangeTo, factor: factor === null ? null : Number(factor), minPrice, maxPrice }),
    [tiers, rangeFrom, rangeTo, factor, minPrice, maxPrice],
  );
  const paging = useClientPaging(rows, PREVIEW_DEFAULT_PAGE_SIZE);
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      paging.reset();
    };

  return (
    <Paper withBorder p="sm">
      <Title order={2} size="h4" mb="xs">
        Vista previa
      </Title>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <NumberInput
          label="Peso inicial (kg)"
          w={120}
          size="xs"
          min={1}
          max={PREVIEW_MAX_KG}
          allowDecimal={false}
          value={fromKg}
          onChange={filter((v: string | number) => setFromKg(v === '' ? '' : Number(v)))}
          onBlur={() => setFromKg(range.fromKg)}
        />
        <NumberInput
          label="Peso final (kg)"
          w={120}
          size="xs"
          min={1}
          max={PREVIEW_MAX_KG}
          allowDecimal={false}
          value={toKg}
          onChange={filter((v: string | number) => setToKg(v === '' ? '' : Number(v)))}
          // Final never below initial: corrected when the user leaves the box.
          onBlur={() => setToKg(range.toKg)}
        />
        <Select
          label="Factor"
          w={110}
          size="xs"
          placeholder="Todos"
          clearable
          allowDeselect
          data={factors.map((f) => ({ value: String(f), label: formatFactor(f) }))}
          value={factor}
          onChange={filter(setFactor)}
        />
        <NumberInput
          label="Precio mínimo"
          w={110}
          size="xs"
          min={0}
          decimalScale={2}
          prefix="S/ "
          hideControls
          value={minPrice ?? ''}
          onChange={filter((v: string | number) => setMinPrice(num(v)))}
        />
        <NumberInput
          label="Precio máximo"
          w={110}
          size="xs"
          min={0}
          decimalScale={2}
          prefix="S/ "
          hideControls
          value={maxPrice ?? ''}
          onChange={filter((v: string | number) => setMaxPrice(num(v)))}
        />
      </Group>
      <Text size="sm" c="dimmed" mt="xs" data-testid="preview-count">
        {rows.length === 1 ? '1 peso' : `${rows.length} pesos`} de {range.fromKg} a {range.toKg} kg
      </Text>
      <Table aria-label="Vista previa de precios" mt={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th ta="right">Peso (kg)</Table.Th>
            <Table.Th ta="right">Factor</Table.Th>
            <Table.Th ta="right">Precio</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {paging.items.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3} ta="center" c="dimmed">
                Sin resultados con los filtros actuales.
              </Table.Td>
            </Table.Tr>
          ) : (
            paging.items.map((r) => (
              <Table.Tr key={r.weightKg}>
                <Table.Td ta="right">{r.weightKg}</Table.Td>
                <Table.Td ta="right">{r.factorPerKg === null ? '—' : formatFactor(r.factorPerKg)}</Table.Td>
                <Table.Td ta="right">
                  {r.priceCents === null ? (
                    <Text span size="sm" c="dimmed">
                      Fuera de rango
                    </Text>
                  ) : (
                    formatMoney(centsToNumber(r.priceCents))
                  )}
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      <Pager {...paging} pageSizes={PREVIEW_PAGE_SIZES} />
    </Paper>
  );
}
