import { useEffect, useRef, useState } from 'react';
import { Button, Group, Image, Input, Stack, Text } from '@mantine/core';
import { PROOF_LIMITS, PROOF_MESSAGES } from '@tramo/domain';
import type SignaturePad from 'signature_pad';

/** Proof of delivery inputs (issue 18): a photo from the camera or a file, and a signature drawn on screen. */

/** The data URL's decoded size in bytes. */
const dataUrlBytes = (url: string) => Math.floor(((url.length - url.indexOf(',') - 1) * 3) / 4);

/**
 * The photo resized in the browser: longest side at most 1280 px, JPEG, quality lowered until it
 * fits the server's limit, so a 12 MP phone photo travels as ~200 KB. Null when it is not an image.
 */
async function resizePhoto(file: File): Promise<string | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return null;
  }
  const scale = Math.min(1, PROOF_LIMITS.photoMaxSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d')!;
  // JPEG has no transparency: a PNG's clear parts become white, not black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  for (const quality of [0.82, 0.7, 0.55, 0.4]) {
    const url = canvas.toDataURL('image/jpeg', quality);
    if (dataUrlBytes(url) <= PROOF_LIMITS.photo.maxBytes) return url;
  }
  return null;
}

export function PhotoInput({
  value,
  onChange,
  required,
  error,
  label = 'Foto de la entrega',
}: {
  value: string | null;
  onChange(value: string | null): void;
  required: boolean;
  error?: string;
  /** The same capture serves an incident's photo (issue 17). */
  label?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    const url = await resizePhoto(file);
    setBusy(false);
    if (url) onChange(url);
    else setProblem(PROOF_MESSAGES.photoType);
    if (input.current) input.current.value = '';
  };

  return (
    <Input.Wrapper
      label={label}
      withAsterisk={required}
      description="Con la cámara de la tableta o el teléfono, o un archivo"
      error={problem ?? error}
    >
      <Stack gap={6} mt={4}>
        {/* `capture` opens the rear camera on a phone or tablet; a PC offers the file picker. */}
        <input
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/*"
          capture="environment"
          aria-label={label}
          hidden
          onChange={(e) => void pick(e.currentTarget.files?.[0])}
        />
        <Group gap="xs">
          <Button variant="default" size="xs" loading={busy} onClick={() => input.current?.click()}>
            {value ? 'Cambiar foto' : 'Tomar o elegir foto'}
          </Button>
          {value && (
            <Button variant="subtle" color="red" size="xs" onClick={() => onChange(null)}>
              Quitar foto
            </Button>
          )}
        </Group>
        {value && <Image src={value} alt={label} h={120} w="auto" fit="contain" radius="sm" style={{ alignSelf: 'flex-start' }} />}
      </Stack>
    </Input.Wrapper>
  );
}

/** The signature pad, loaded on first use; every finished stroke hands the drawing up as a PNG. */
export function SignatureInput({
  value,
  onChange,
  required,
  error,
}: {
  value: string | null;
  onChange(value: string | null): void;
  required: boolean;
  error?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const change = useRef(onChange);
  useEffect(() => {
    change.current = onChange;
  });

  useEffect(() => {
    let live = true;
    void import('signature_pad').then(({ default: Pad }) => {
      const el = canvas.current;
      // No 2D context where canvas is not implemented (jsdom in the component tests): no pad to draw on.
      const context = el?.getContext('2d');
      if (!live || !el || !context) return;
      // Drawn at the screen's pixel density so the stroke is sharp, exported at that size.
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      el.width = el.offsetWidth * ratio;
      el.height = el.offsetHeight * ratio;
      context.scale(ratio, ratio);
      const created = new Pad(el, { penColor: '#000', backgroundColor: 'rgba(0,0,0,0)', minWidth: 0.8, maxWidth: 2.2 });
      created.addEventListener('endStroke', () => change.current(created.isEmpty() ? null : created.toDataURL('image/png')));
      pad.current = created;
    });
    return () => {
      live = false;
      pad.current?.off();
      pad.current = null;
    };
  }, []);

  const clear = () => {
    pad.current?.clear();
    onChange(null);
  };

  return (
    <Input.Wrapper label="Firma de quien recibe" withAsterisk={required} error={error}>
      <Stack gap={4} mt={4}>
        <canvas
          ref={canvas}
          aria-label="Firma de quien recibe (dibuje con el dedo o el mouse)"
          data-testid="signature-pad"
          style={{
            width: '100%',
            height: 150,
            border: '1px dashed var(--mantine-color-gray-5)',
            borderRadius: 4,
            touchAction: 'none',
            background: '#fff',
          }}
        />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {value ? 'Firma registrada.' : 'Dibuje la firma con el dedo o el mouse.'}
          </Text>
          <Button variant="subtle" size="xs" onClick={clear} disabled={!value}>
            Borrar firma
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
