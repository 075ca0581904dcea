import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { apiFile, errorMessage } from '../../../lib/api.ts';

/**
 * 'Manifiesto de carga': the trip's PDF (or the load's draft before departure) inside the page,
 * fetched with the session, with Imprimir and Descargar.
 */
export function ManifestButton({
  transportId,
  tripId,
  plate,
  disabled,
  label = 'Manifiesto de carga',
}: {
  transportId: number;
  /** A past trip's manifest (as it left) instead of the transport's current one. */
  tripId?: number;
  plate: string;
  disabled?: boolean;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  const file = useQuery({
    queryKey: ['fleet', 'manifest', transportId, tripId ?? 'current'],
    queryFn: () => apiFile(tripId ? `/trips/${tripId}/manifest.pdf` : `/transports/${transportId}/manifest.pdf`),
    enabled: open,
    retry: false,
    gcTime: 0,
  });
  const blob = open ? file.data : undefined;
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const frame = useRef<HTMLIFrameElement>(null);
  const name = tripId ? `manifiesto-${plate}-viaje-${tripId}` : `manifiesto-${plate}`;

  return (
    <>
      <Button size="xs" variant="light" disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Manifiesto de carga · ${plate}`} size="xl">
        {file.isFetching && !url && (
          <Group justify="center" p="xl">
            <Loader aria-label="Cargando manifiesto" />
          </Group>
        )}
        {file.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(file.error, 'No se pudo abrir el manifiesto.')}
          </Alert>
        )}
        {url && blob && (
          <Stack gap="sm">
            <iframe ref={frame} title={`PDF ${name}`} src={url} style={{ width: '100%', height: '70vh', border: 0 }} />
            <Group justify="flex-end">
              <Button variant="default" component="a" href={url} download={`${name}.pdf`}>
                Descargar
              </Button>
              <Button onClick={() => frame.current?.contentWindow?.print()}>Imprimir</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
