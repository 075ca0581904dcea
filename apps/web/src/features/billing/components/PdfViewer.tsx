import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { errorMessage } from '../../../lib/api.ts';
import { fetchDocumentFile, saveBlob } from '../api/open-file.ts';

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
export function PdfViewer({ request, onClose }: { request: PdfRequest | null; onClose(): void }) {
  const file = useQuery({
    queryKey: ['billing', 'file', request?.id, request?.format],
    queryFn: () => fetchDocumentFile(request!.id, request!.format),
    enabled: request !== null,
    retry: false,
    gcTime: 0,
  });
  const blob = request ? file.data : undefined;
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const frame = useRef<HTMLIFrameElement>(null);

  const suffix = request?.format === 'ticket' ? 'ticket' : 'A4';
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      title={request ? `${request.name} · ${suffix}` : ''}
      size={request?.format === 'ticket' ? 'md' : 'xl'}
    >
      {file.isFetching && !url && (
        <Group justify="center" p="xl">
          <Loader />
        </Group>
      )}
      {file.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(file.error, 'No se pudo abrir el PDF.')}
        </Alert>
      )}
      {url && blob && request && (
        <Stack gap="sm">
          <iframe ref={frame} title={`PDF ${request.name}`} src={url} style={{ width: '100%', height: '70vh', border: 0 }} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => saveBlob(blob, `${request.name}-${suffix}.pdf`)}>
              Descargar
            </Button>
            <Button onClick={() => frame.current?.contentWindow?.print()}>Imprimir</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
