import { Badge } from '@mantine/core';
import { isTransportStatus, TRANSPORT_STATUS_LABELS, TRANSPORT_STATUS_TONES, type TransportStatusTone } from '@tramo/domain';

/** Spec section 4 tones: disponible success, en_ruta primary (the theme's brand colour), mantenimiento warning. */
const TONE_COLORS: Record<TransportStatusTone, string | undefined> = { success: 'green', primary: undefined, warning: 'yellow' };

export function TransportStatusPill({ status }: { status: string }) {
  if (!isTransportStatus(status))
    return (
      <Badge variant="light" color="gray">
        {status}
      </Badge>
    );
  return (
    <Badge
      variant="light"
      radius="xl"
      tt="none"
      style={{ overflow: 'visible', minWidth: 'max-content' }}
      color={TONE_COLORS[TRANSPORT_STATUS_TONES[status]]}
    >
      {TRANSPORT_STATUS_LABELS[status]}
    </Badge>
  );
}
