import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import type { Shipment, ShipmentEvent } from '../../shipments/index.ts';

/** A labelled value of a shipment summary. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

/** The newest history entry (the API returns them oldest first). */
export function lastEvent(shipment: Shipment): ShipmentEvent | null {
  return shipment.checkpoints?.at(-1) ?? null;
}
