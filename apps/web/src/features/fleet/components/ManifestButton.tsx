import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@mantine/core';
import { PdfModal } from '../../../components/ui/PdfModal.tsx';
import { apiFile } from '../../../lib/api.ts';

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
  const name = tripId ? `manifiesto-${plate}-viaje-${tripId}` : `manifiesto-${plate}`;

  return (
    <>
      <Button size="xs" variant="light" disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <PdfModal
        opened={open}
        onClose={() => setOpen(false)}
        title={`Manifiesto de carga · ${plate}`}
        name={name}
        blob={open ? file.data : undefined}
        fetching={file.isFetching}
        error={file.error}
        errorFallback="No se pudo abrir el manifiesto."
        loaderLabel="Cargando manifiesto"
      />
    </>
  );
}
