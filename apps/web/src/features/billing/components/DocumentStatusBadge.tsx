import { Badge } from '@mantine/core';
import { DOCUMENT_STATUS_LABELS, DOCUMENT_STATUS_TONES, type DocumentStatus, type DocumentStatusTone } from '@tramo/domain';

const COLORS: Record<DocumentStatusTone, string> = { warning: 'yellow', success: 'teal', danger: 'red', neutral: 'gray' };

/** The provider status of a document (pendiente / aceptado / rechazado / anulación pendiente / anulado). */
export function DocumentStatusBadge({ status }: { status: DocumentStatus }) {
  // A badge's label is cut with an ellipsis when its cell is narrow ('Acept…' at 1024 px): the
  // status is read whole, so the badge keeps its full width and the other columns wrap instead.
  return (
    <Badge variant="light" tt="none" radius="sm" color={COLORS[DOCUMENT_STATUS_TONES[status]]} style={{ minWidth: 'max-content' }}>
      {DOCUMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
