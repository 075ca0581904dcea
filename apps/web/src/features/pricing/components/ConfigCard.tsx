import { ActionIcon, Badge, Button, Group, Input, NumberInput, Paper, SegmentedControl, Skeleton, Table, Text, Title } from '@mantine/core';
import { MAX_FACTOR_PER_KG, MAX_TIER_KG, overlappingTiers, PRODUCT_TYPE_LABELS, PRODUCT_TYPES, type Branch, type ProductType } from '@tramo/domain';
import { BranchSelect } from '../../branches/index.ts';
import { addRow, removeRow, swapRow, toTiers, type TierRow } from './tierRows.ts';
import { ActionsTh } from '../../../components/ui/ActionsTh.tsx';

interface ConfigCardProps {
  branches: Branch[];
  originId: number;
  destinationId: number;
  productType: ProductType;
  onOrigin(id: number): void;
  onDestination(id: number): void;
  onProductType(value: ProductType): void;
  /** null while the route's table loads. */
  rows: TierRow[] | null;
  onRows(rows: TierRow[]): void;
  /** Whether the route and class already have a saved table. */
  saved: boolean;
}

const CLASS_LABELS = PRODUCT_TYPE_LABELS;

const asNumber = (v: string | number): number | '' => (v === '' || v === '-' ? '' : Number(v));

export function ConfigCard(props: ConfigCardProps) {
  const { branches, originId, destinationId, productType, rows, onRows, saved } = props;
  const name = (id: number) => branches.find((b) => b.id === id)?.name ?? '—';

  const update = (key: number, patch: Partial<TierRow>) => rows && onRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const swap = (key: number) => rows && onRows(rows.map((r) => (r.key === key ? swapRow(r) : r)));
  // 'Hay tramos que se solapan...' names no row by itself: the overlapping ranges are marked here.
  const overlapping = rows ? overlappingTiers(toTiers(rows)) : new Set<number>();

  return (
    <Paper withBorder p="sm">
      <Title order={2} size="h4" mb="xs">
        Configuración
      </Title>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <BranchSelect label="Origen" w={170} value={originId} onChange={(v) => v && props.onOrigin(Number(v))} searchable />
        <BranchSelect
          label="Destino"
          w={170}
          exclude={originId}
          value={destinationId}
          onChange={(v) => v && props.onDestination(Number(v))}
          searchable
        />
        <div>
          <Input.Label id="product-type-label" display="block" mb={4}>
            Categoría
          </Input.Label>
          <SegmentedControl
            aria-labelledby="product-type-label"
            data={PRODUCT_TYPES.map((value) => ({ value, label: CLASS_LABELS[value] }))}
            value={productType}
            onChange={(v) => props.onProductType(v as ProductType)}
          />
        </div>
      </Group>

      <Group justify="space-between" mt="sm" mb={4} wrap="nowrap">
        <Text size="sm" data-testid="current-route">
          Ruta actual:{' '}
          <b>
            {name(originId)} → {name(destinationId)}
          </b>{' '}
          · {productType.toUpperCase()}
        </Text>
        {rows && (
          // Never cut to 'Tabla guar…' beside a long route on the 1024 tablet: the route's line wraps instead.
          <Badge variant="light" color={saved ? 'teal' : 'gray'} tt="none" styles={{ label: { overflow: 'visible' } }}>
            {saved ? 'Tabla guardada' : 'Sin tabla guardada'}
          </Badge>
        )}
      </Group>

      <Table aria-label="Tramos de peso" striped={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Desde (kg)</Table.Th>
            <Table.Th>Hasta (kg)</Table.Th>
            <Table.Th>Factor por kg</Table.Th>
            <Table.Th ta="center" w={60}>
              Orden
            </Table.Th>
            <ActionsTh w={44} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows === null
            ? [1, 2].map((i) => (
                <Table.Tr key={i}>
                  <Table.Td colSpan={5}>
                    <Skeleton height={28} />
                  </Table.Td>
                </Table.Tr>
              ))
            : rows.map((r, i) => {
                const n = i + 1;
                const overlaps = overlapping.has(i);
                return (
                  <Table.Tr key={r.key} bg={overlaps ? 'var(--mantine-color-red-light)' : undefined} data-overlap={overlaps || undefined}>
                    <Table.Td>
                      <NumberInput
                        size="xs"
                        aria-label={`Desde (kg) tramo ${n}`}
                        value={r.from_kg}
                        min={1}
                        max={MAX_TIER_KG}
                        decimalScale={2}
                        onChange={(v) => update(r.key, { from_kg: asNumber(v) })}
                        onBlur={() => swap(r.key)}
                        error={overlaps || r.from_kg === '' || r.from_kg < 1 || r.from_kg > MAX_TIER_KG}
                        hideControls
                      />
                    </Table.Td>
                    <Table.Td>
                      <NumberInput
                        size="xs"
                        aria-label={`Hasta (kg) tramo ${n}`}
                        value={r.to_kg}
                        min={1}
                        max={MAX_TIER_KG}
                        decimalScale={2}
                        onChange={(v) => update(r.key, { to_kg: asNumber(v) })}
                        onBlur={() => swap(r.key)}
                        error={overlaps || r.to_kg === '' || r.to_kg < 1 || r.to_kg > MAX_TIER_KG}
                        hideControls
                      />
                    </Table.Td>
                    <Table.Td>
                      <NumberInput
                        size="xs"
                        aria-label={`Factor por kg tramo ${n}`}
                        value={r.factor_per_kg}
                        min={0}
                        max={MAX_FACTOR_PER_KG}
                        decimalScale={4}
                        step={0.1}
                        onChange={(v) => update(r.key, { factor_per_kg: asNumber(v) })}
                        error={r.factor_per_kg === '' || r.factor_per_kg <= 0 || r.factor_per_kg > MAX_FACTOR_PER_KG}
                        hideControls
                      />
                    </Table.Td>
                    <Table.Td ta="center">{r.sort_order}</Table.Td>
                    <Table.Td>
                      <ActionIcon variant="subtle" color="red" aria-label={`Quitar tramo ${n}`} onClick={() => onRows(removeRow(rows, r.key))}>
                        ✕
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
        </Table.Tbody>
      </Table>
      <Button variant="light" size="xs" mt="xs" disabled={rows === null} onClick={() => rows && onRows(addRow(rows))}>
        + Agregar tramo
      </Button>
    </Paper>
  );
}
