import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { MovementPage } from '@tramo/domain';
import { formatMoney, formatNumber } from '../../../lib/format.ts';

function Total({ label, count, amount, strong }: { label: string; count: number; amount: number; strong?: boolean }) {
  return (
    <Paper withBorder p="xs">
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Text size="xs" c="dimmed" truncate>
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          {formatNumber(count)}
        </Text>
      </Group>
      <Text fw={strong ? 700 : 500} ff="monospace">
        {formatMoney(amount)}
      </Text>
    </Paper>
  );
}

/** The totals of the whole filtered set (not just the page): per status (Pagado is what came in) and per method. */
export function MovementTotals({ totals }: { totals: MovementPage['totals'] }) {
  return (
    <div aria-label="Totales del filtro" role="region">
      <Text size="xs" fw={600} c="dimmed" mb={4}>
        Por estado
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" mb="xs">
        {totals.byStatus.map((s) => (
          <Total key={s.status} label={s.statusLabel} count={s.count} amount={s.amount} strong={s.status === 'paid'} />
        ))}
        <Total label="Todos" count={totals.count} amount={totals.byStatus.reduce((sum, s) => sum + Math.round(s.amount * 100), 0) / 100} />
      </SimpleGrid>
      {totals.byMethod.length > 0 && (
        <>
          <Text size="xs" fw={600} c="dimmed" mb={4}>
            Por método (todos los estados)
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="xs" mb="sm">
            {totals.byMethod.map((m) => (
              <Total key={m.methodCode} label={m.methodName} count={m.count} amount={m.amount} />
            ))}
          </SimpleGrid>
        </>
      )}
    </div>
  );
}
