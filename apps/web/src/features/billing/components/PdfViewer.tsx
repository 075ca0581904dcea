import type { RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PdfModal } from '../../../components/ui/PdfModal.tsx';
import { fetchDocumentFile } from '../api/open-file.ts';

export interface PdfRequest {
  id: number;
  format: 'a4' | 'ticket';
  /** 'FFF1-00000012', for the title and the file name. */
  name: string;
}

/**
 * The document's PDF inside the page (A4, or the 80 mm ticket the counter prints on its thermal
 * printer). Fetched with the session, so it works without opening an unauthenticated address.
 */
export function PdfViewer({
  request,
  onClose,
  returnFocusTo,
}: {
  request: PdfRequest | null;
  onClose(): void;
  /** Where the focus goes once it closes (the counter's next step); else back to what opened it. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const file = useQuery({
    queryKey: ['billing', 'file', request?.id, request?.format],
    queryFn: () => fetchDocumentFile(request!.id, request!.format),
    enabled: request !== null,
    retry: false,
    gcTime: 0,
  });
  const suffix = request?.format === 'ticket' ? 'ticket' : 'A4';
  return (
    <PdfModal
      opened={request !== null}
      onClose={onClose}
      title={request ? `${request.name} · ${suffix}` : ''}
      size={request?.format === 'ticket' ? 'md' : 'xl'}
      name={request ? `${request.name}-${suffix}` : ''}
      blob={request ? file.data : undefined}
      fetching={file.isFetching}
      error={file.error}
      errorFallback="No se pudo abrir el PDF."
      returnFocusTo={returnFocusTo}
    />
  );
}
