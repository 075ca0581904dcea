import { Badge } from '@mantine/core';
import { DOCUMENT_STATUS_LABELS, DOCUMENT_STATUS_TONES, type DocumentStatus, type DocumentStatusTone } from '@tramo/domain';

const COLORS: Record<DocumentStatusTone, string> = { warning: 'yellow', success: 'teal', danger: 'red', neutral: 'gray' };

/** The provider status of a document (pendiente / aceptado / rechazado / anulación pendiente / anulado). */
export function DocumentStatusBadge({ status }: { status: DocumentStatus }) {
  return (
    <Badge variant="light" tt="none" radius="sm" color={COLORS[DOCUMENT_STATUS_TONES[status]]}>
      {DOCUMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
