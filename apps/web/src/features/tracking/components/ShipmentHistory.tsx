import { Text, Timeline } from '@mantine/core';
import { formatDateTime } from '../../../lib/format.ts';
import type { ShipmentEvent } from '../../shipments/index.ts';

/** The whole history in time order, oldest first, with who recorded each entry. */
export function ShipmentHistory({ events }: { events: readonly ShipmentEvent[] }) {
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
            <Text size="sm" fw={600}>
              {e.name}
            </Text>
          }
        >
          <Text size="xs" c="dimmed">
            {formatDateTime(e.at)}
            {e.userName ? ` · ${e.userName}` : ''}
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
