import { useRef, useState } from 'react';
import { Button, Group, Loader, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { MOVEMENTS_CSV_FILENAME, type MovementFilters } from '@tramo/domain';
import { saveBlob } from '../../../lib/files.ts';
import { formatNumber } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { CSV_EXPORT_FAILED, downloadMovementsCsv } from '../api/movements.ts';

/** The `sep=` line and the header come before the first movement. */
const PREAMBLE_LINES = 2;

/**
 * 'Exportar CSV': the whole filtered set in one streamed request (in the browser's locale: ';' where
 * decimals take a comma), the rows so far while it comes, and 'Cancelar' to stop it.
 */
export function CsvExport({ filters, disabled }: { filters: MovementFilters; disabled?: boolean }) {
  const [rows, setRows] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setRows(0);
    try {
      const blob = await downloadMovementsCsv(filters, navigator.language || 'es-PE', {
        signal: abort.signal,
        onRows: (lines) => setRows(Math.max(0, lines - PREAMBLE_LINES)),
      });
      saveBlob(blob, MOVEMENTS_CSV_FILENAME);
    } catch (err) {
      if (!abort.signal.aborted) notify.error(err, CSV_EXPORT_FAILED);
    } finally {
      controller.current = null;
      setRows(null);
    }
  };

  if (rows === null) {
    return (
      <Button variant="default" leftSection={<IconDownload size={16} />} disabled={disabled} onClick={() => void start()}>
        Exportar CSV
      </Button>
    );
  }
  return (
    <Group gap="xs" role="status" aria-live="polite">
      <Loader size="xs" />
      <Text size="sm" aria-label="Progreso de la exportación">
        Exportando… {formatNumber(rows)} {rows === 1 ? 'fila' : 'filas'}
      </Text>
      <Button variant="subtle" color="red" size="xs" onClick={() => controller.current?.abort()}>
        Cancelar
      </Button>
    </Group>
  );
}
