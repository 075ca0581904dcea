import { Group, Progress, Stack, Text } from '@mantine/core';
import { loadPercent } from '@tramo/domain';
import { formatKg } from './format.ts';

/** Real and billable weight of the load against the transport's capacity (and its own net weight). */
export function CapacityBar({
  realKg,
  billableKg,
  capacityKg,
  netWeightKg,
}: {
  realKg: number;
  billableKg: number;
  capacityKg: number | null;
  netWeightKg: number | null | undefined;
}) {
  const percent = loadPercent(realKg, capacityKg);
  const color = percent === null ? 'gray' : percent > 100 ? 'red' : percent >= 90 ? 'orange' : 'teal';
  return (
    <Stack gap={4} miw={300}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" aria-label="Peso cargado">
          Cargado: <b>{formatKg(realKg)}</b> de {capacityKg === null ? 'capacidad no registrada' : formatKg(capacityKg)}
        </Text>
        {percent !== null && (
          <Text size="sm" fw={700} c={`${color}.9`} aria-label="Porcentaje de la capacidad">
            {percent}%
          </Text>
        )}
      </Group>
      {percent !== null && <Progress value={Math.min(100, percent)} color={color} aria-label="Uso de la capacidad" />}
      <Text size="xs" c="dark.4">
        Peso facturable: {formatKg(billableKg)}
        {netWeightKg !== null && netWeightKg !== undefined ? ` · Peso neto del vehículo: ${formatKg(netWeightKg)}` : ''}
      </Text>
    </Stack>
  );
}
