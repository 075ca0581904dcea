import { Group, Paper, Stack, Text } from '@mantine/core';
import { useWatch, type Control } from 'react-hook-form';
import { previewTotals, type InvoiceFormValues } from '@tramo/domain';
import { formatMoney } from '../../../../lib/format.ts';

function Row({ label, cents, strong }: { label: string; cents: number; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="xl">
      <Text size="sm" fw={strong ? 700 : undefined}>
        {label}
      </Text>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : undefined} ff="monospace" data-testid={`total-${label}`}>
        {formatMoney(cents / 100)}
      </Text>
    </Group>
  );
}

/** Gravada, exonerada, inafecta, IGV 18 % and total, live: the domain's own arithmetic. */
export function TotalsBox({ control }: { control: Control<InvoiceFormValues> }) {
  const items = useWatch({ control, name: 'items' }) ?? [];
  const t = previewTotals(items);
  return (
    <Paper withBorder p="md" miw={260} aria-label="Totales">
      <Stack gap={4}>
        <Row label="Op. gravada" cents={t.gravadaCents} />
        <Row label="Op. exonerada" cents={t.exoneradaCents} />
        <Row label="Op. inafecta" cents={t.inafectaCents} />
        <Row label="IGV 18 %" cents={t.igvCents} />
        <Row label="Total" cents={t.totalCents} strong />
      </Stack>
    </Paper>
  );
}
