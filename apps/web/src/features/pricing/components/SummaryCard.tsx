import { ActionIcon, Alert, Button, Collapse, Group, Paper, ScrollArea, Table, Text, Title } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import type { WeightFactorSummary } from '@tramo/domain';
import { TableSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useWeightFactorSummary } from '../api/get-summary.ts';
import { formatKg } from './format.ts';
import { ActionsTh } from '../../../components/ui/ActionsTh.tsx';

/** Spec section 9: the summary's open flag is kept locally, open by default. */
const OPEN_KEY = 'factorPeso.summaryOpen';

interface SummaryCardProps {
  onLoad(row: WeightFactorSummary): void;
  /** The table in the editor, highlighted in the list. */
  currentId: number | null;
}

export function SummaryCard({ onLoad, currentId }: SummaryCardProps) {
  const summary = useWeightFactorSummary();
  const [open, setOpen] = useLocalStorage<boolean>({ key: OPEN_KEY, defaultValue: true, getInitialValueInEffect: false });
  const rows = summary.data ?? [];

  return (
    <Paper withBorder p="sm" mb="sm">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs">
          <Title order={2} size="h4">
            Tablas guardadas
          </Title>
          {summary.isSuccess && (
            <Text size="sm" c="dimmed">
              ({rows.length})
            </Text>
          )}
        </Group>
        <ActionIcon
          variant="subtle"
          color="gray"
          onClick={() => setOpen(!open)}
          aria-expanded={open}
          aria-label={open ? 'Ocultar resumen' : 'Mostrar resumen'}
        >
          <Text size="lg" lh={1} aria-hidden>
            {open ? '▾' : '▸'}
          </Text>
        </ActionIcon>
      </Group>
      <Collapse expanded={open}>
        {summary.isError ? (
          <Alert color="red" variant="light" mt="xs" role="alert">
            {errorMessage(summary.error, 'No se pudo cargar el resumen')}
          </Alert>
        ) : summary.isSuccess && rows.length === 0 ? (
          <Text c="dimmed" size="sm" mt="xs">
            No hay tablas guardadas aún.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={232} mt="xs" type="auto">
            <Table stickyHeader aria-label="Resumen de tablas guardadas">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Ruta</Table.Th>
                  <Table.Th>Categoría</Table.Th>
                  <Table.Th>Moneda</Table.Th>
                  <Table.Th ta="right">Tramos</Table.Th>
                  <Table.Th ta="right">Rango (kg)</Table.Th>
                  <Table.Th ta="right">Precio 1 kg</Table.Th>
                  <Table.Th ta="right">Precio 10 kg</Table.Th>
                  <ActionsTh w={90} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {summary.isPending ? (
                  <TableSkeleton cols={8} rows={4} />
                ) : (
                  rows.map((r) => {
                    const route = `${r.origin_name} → ${r.destination_name}`;
                    const category = r.product_type.toUpperCase();
                    return (
                      <Table.Tr key={r.id} bg={r.id === currentId ? 'var(--mantine-color-teal-light)' : undefined}>
                        <Table.Td>{route}</Table.Td>
                        <Table.Td>{category}</Table.Td>
                        <Table.Td>{r.currency}</Table.Td>
                        <Table.Td ta="right">{r.tier_count}</Table.Td>
                        <Table.Td ta="right">
                          {r.min_kg === null || r.max_kg === null ? '—' : `${formatKg(r.min_kg)} – ${formatKg(r.max_kg)}`}
                        </Table.Td>
                        <Table.Td ta="right">{formatMoney(r.price_1kg)}</Table.Td>
                        <Table.Td ta="right">{formatMoney(r.price_10kg)}</Table.Td>
                        <Table.Td ta="right">
                          <Button size="compact-xs" variant="light" onClick={() => onLoad(r)} aria-label={`Cargar ${route} ${category}`}>
                            Cargar
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Collapse>
    </Paper>
  );
}
