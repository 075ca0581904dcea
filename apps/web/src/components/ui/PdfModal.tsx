import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, type ModalProps } from '@mantine/core';
import { errorMessage } from '../../lib/api.ts';
import { saveBlob } from '../../lib/files.ts';

export interface PdfModalProps {
  opened: boolean;
  onClose(): void;
  title: string;
  size?: ModalProps['size'];
  /** The file's name without '.pdf', for 'Descargar' and the frame's title. */
  name: string;
  /** The fetched PDF (fetched with the session: its address needs no token in the URL). */
  blob: Blob | undefined;
  fetching: boolean;
  error: unknown;
  /** The Spanish fallback when the answer carries no message. */
  errorFallback: string;
  loaderLabel?: string;
  /** Where the work goes on once it closes (issue 38); by default the focus returns to what opened it. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/** A PDF inside the page, with Descargar and Imprimir (the frame prints only the PDF). */
export function PdfModal({
  opened,
  onClose,
  title,
  size = 'xl',
  name,
  blob,
  fetching,
  error,
  errorFallback,
  loaderLabel,
  returnFocusTo,
}: PdfModalProps) {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const frame = useRef<HTMLIFrameElement>(null);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      returnFocus={!returnFocusTo}
      onExitTransitionEnd={() => returnFocusTo?.current?.focus()}
    >
      {fetching && !url && (
        <Group justify="center" p="xl">
          <Loader aria-label={loaderLabel} />
        </Group>
      )}
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(error, errorFallback)}
        </Alert>
      ) : null}
      {url && blob && (
        <Stack gap="sm">
          <iframe ref={frame} title={`PDF ${name}`} src={url} style={{ width: '100%', height: '70vh', border: 0 }} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => saveBlob(blob, `${name}.pdf`)}>
              Descargar
            </Button>
            <Button onClick={() => frame.current?.contentWindow?.print()}>Imprimir</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
