import { ActionIcon, Group, Text, Timeline, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { formatDateTime } from '../../../lib/format.ts';
import type { ShipmentEvent } from '../types.ts';

interface ShipmentHistoryProps {
  events: readonly ShipmentEvent[];
  /** Those who manage the shipment may delete the events staff added (never its status record). */
  onDelete?(event: ShipmentEvent): void;
}

/** The whole history in time order, oldest first (it reads as the shipment's story), with who recorded each entry. */
export function ShipmentHistory({ events, onDelete }: ShipmentHistoryProps) {
  if (events.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Sin eventos registrados.
      </Text>
    );
  }
  const ordered = [...events].sort((a, b) => a.at.localeCompare(b.at) || a.id - b.id);
  return (
    <Timeline active={ordered.length - 1} bulletSize={14} lineWidth={2} aria-label="Historial">
      {ordered.map((e) => (
        <Timeline.Item
          key={e.id}
          title={
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" fw={600}>
                {e.name}
              </Text>
              {onDelete && e.kind === 'event' && (
                <Tooltip label="Eliminar evento">
                  <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Eliminar evento ${e.name}`} onClick={() => onDelete(e)}>
                    <IconTrash size={14} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          }
        >
          <Text size="xs" c="dimmed">
            {formatDateTime(e.at)} · {e.userName ?? 'Sistema'}
            {/* Staff know which of their notes the customer reads on /seguimiento. */}
            {e.kind === 'event' && (e.visibleToCustomer ? ' · Visible para el cliente' : ' · Interno')}
          </Text>
          {e.note && !e.name.includes(e.note) && (
            <Text size="xs" mt={2}>
              {e.note}
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
