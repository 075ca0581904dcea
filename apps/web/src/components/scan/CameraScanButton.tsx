import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Group, Loader, Modal, Text } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { codeFromScan } from '@tramo/domain';
import { openFrameReader } from './decoders.ts';
import { SCAN_COLORS, type ScanFeedback } from './feedback.ts';

/** What a read answers: the feedback to show, and `done` when the camera has nothing more to read (Entregas). */
export type CameraReadResult = ScanFeedback & { done?: boolean };

/** The same code seen again is a label still in front of the lens, not a new parcel, until it has been out of sight this long. */
const SAME_CODE_QUIET_MS = 2000;
/** A pause between frames: the tablet stays cool and the handler's answer gets the screen. */
const FRAME_PAUSE_MS = 120;

function cameraError(err: unknown): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'Permiso de cámara denegado: permite el uso de la cámara en el navegador para escanear.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No se encontró ninguna cámara en este dispositivo.';
  if (name === 'NotReadableError') return 'La cámara está siendo usada por otra aplicación.';
  return 'No se pudo abrir la cámara.';
}

type Phase = 'starting' | 'loading' | 'scanning';

/** The live picture and its decoding loop: mounted while the modal is open, so closing it stops the camera. */
function CameraView({ onRead, onDone }: { onRead: (code: string) => Promise<CameraReadResult>; onDone: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [phase, setPhase] = useState<Phase>('starting');
  const [error, setError] = useState<string | null>(null);
  const [feedback, setFeedback] = useState<(ScanFeedback & { n: number }) | null>(null);
  // The latest handlers without restarting the camera when the parent re-renders.
  const handlers = useRef({ onRead, onDone });
  useEffect(() => {
    handlers.current = { onRead, onDone };
  });

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let reads = 0;
    const element = video.current!;
    (async () => {
      // Browsers give the camera only to https pages (and localhost).
      if (!navigator.mediaDevices?.getUserMedia) {
        setError('Este navegador no da acceso a la cámara en esta página (hace falta una conexión segura https).');
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      } catch (err) {
        if (!stopped) setError(cameraError(err));
        return;
      }
      if (stopped) {
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      setPhase('loading');
      let reader: Awaited<ReturnType<typeof openFrameReader>>;
      try {
        reader = await openFrameReader();
      } catch {
        if (!stopped) setError('No se pudo cargar el lector de códigos. Usa el lector USB o escribe el código.');
        return;
      }
      if (stopped) return;
      element.dataset.engine = reader.engine;
      setPhase('scanning');
      let last = { text: '', at: 0 };
      const tick = async () => {
        if (stopped) return;
        try {
          const text = await reader.read(element);
          if (text && !stopped) {
            const fresh = text !== last.text || Date.now() - last.at > SAME_CODE_QUIET_MS;
            last = { text, at: Date.now() };
            if (fresh) {
              const answer = await handlers.current.onRead(codeFromScan(text));
              if (stopped) return;
              reads += 1;
              setFeedback({ tone: answer.tone, message: answer.message, n: reads });
              last = { text, at: Date.now() };
              if (answer.done) {
                handlers.current.onDone();
                return;
              }
            }
          }
        } catch {
          // One frame that fails to decode is no reason to stop: the next one may read.
        }
        if (!stopped) timer = window.setTimeout(() => void tick(), FRAME_PAUSE_MS);
      };
      void tick();
    })();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
      element.srcObject = null;
    };
  }, []);

  return (
    <>
      <Box
        pos="relative"
        bg="black"
        // No picture to show when the camera could not open: the message says why.
        style={{ display: error ? 'none' : 'block', borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden', aspectRatio: '4 / 3' }}
      >
        <video
          ref={video}
          muted
          playsInline
          aria-label="Imagen de la cámara"
          style={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover' }}
        />
        {/* Where to hold the label: a wide box suits a 1D barcode. */}
        <Box
          aria-hidden
          pos="absolute"
          style={{ inset: '30% 10%', border: '3px solid rgba(255,255,255,0.8)', borderRadius: 8, boxShadow: '0 0 0 9999px rgba(0,0,0,0.25)' }}
        />
      </Box>
      {error ? (
        <Alert color="red" variant="light" role="alert" mt="sm">
          {error}
        </Alert>
      ) : phase !== 'scanning' ? (
        <Group gap="xs" mt="sm">
          <Loader size="xs" />
          <Text size="sm">{phase === 'starting' ? 'Abriendo la cámara…' : 'Preparando el lector de códigos…'}</Text>
        </Group>
      ) : (
        <Text size="sm" mt="sm" c="dimmed">
          Apunta al código de barras de la etiqueta; cada lectura se registra sola.
        </Text>
      )}
      {feedback && (
        <Alert
          color={SCAN_COLORS[feedback.tone]}
          variant="filled"
          mt="xs"
          role="status"
          aria-live="polite"
          key={feedback.n}
          data-scan-tone={feedback.tone}
        >
          {feedback.message}
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button onClick={onDone}>{error ? 'Cerrar la cámara' : 'Terminar'}</Button>
      </Group>
    </>
  );
}

/**
 * A 'Cámara' button for a scan box, for tablets with no USB scanner: it opens the rear camera and
 * hands every code it reads to `onRead`, the same handler the box's Enter calls, then keeps reading
 * for the next parcel until closed (or until a read answers `done`).
 */
export function CameraScanButton({
  title,
  onRead,
  onClose,
  disabled,
}: {
  /** The modal's title, e.g. 'Cargar escaneando con la cámara'. */
  title: string;
  onRead: (code: string) => Promise<CameraReadResult>;
  /** After the modal closes: the box takes the focus back for the USB scanner. */
  onClose?: () => void;
  disabled?: boolean;
}) {
  const [opened, setOpened] = useState(false);
  const close = () => {
    setOpened(false);
    onClose?.();
  };
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconCamera size={18} aria-hidden />}
        onClick={() => setOpened(true)}
        disabled={disabled}
        aria-label={`Cámara: ${title}`}
      >
        Cámara
      </Button>
      <Modal opened={opened} onClose={close} title={title} size="lg" returnFocus={!onClose}>
        {opened && <CameraView onRead={onRead} onDone={close} />}
      </Modal>
    </>
  );
}
