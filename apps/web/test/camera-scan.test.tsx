import { afterEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CameraScanButton, type CameraReadResult } from '../src/components/scan/CameraScanButton.tsx';
import { theme } from '../src/app/theme.ts';

// jsdom has no camera and no BarcodeDetector: these stand in for the browser (Chrome on Android has
// both), so the component's own work is what is tested: which reader it picks, what it hands on,
// the same code held in view read once, the tracks stopped on close, the Spanish messages.
class FakeTrack {
  stopped = false;
  stop() {
    this.stopped = true;
  }
}
function fakeCamera(open: () => Promise<unknown>) {
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn(open) } });
}
function fakeDetector(reads: string[]) {
  const detect = vi.fn(async () => {
    const next = reads.length > 1 ? reads.shift()! : reads[0];
    return next ? [{ rawValue: next }] : [];
  });
  const Detector = class {
    static getSupportedFormats = async () => ['code_128', 'qr_code', 'ean_13'];
    detect = detect;
  };
  Object.defineProperty(window, 'BarcodeDetector', { configurable: true, value: Detector });
  return detect;
}

function renderButton(onRead: (code: string) => Promise<CameraReadResult>) {
  render(
    <MantineProvider theme={theme}>
      <CameraScanButton title="Cargar escaneando con la cámara" onRead={onRead} />
    </MantineProvider>,
  );
  return userEvent.setup();
}

afterEach(() => {
  Reflect.deleteProperty(window, 'BarcodeDetector');
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('CameraScanButton', () => {
  it("reads with the browser's BarcodeDetector, hands each new code on once, and stops the camera on close", async () => {
    window.HTMLMediaElement.prototype.play = () => Promise.resolve();
    const track = new FakeTrack();
    fakeCamera(async () => ({ getTracks: () => [track] }));
    // A label held in view, then the QR of another parcel's tracking page.
    fakeDetector(['TMT-000007', 'TMT-000007', 'TMT-000007', 'https://envios.example.pe/seguimiento/TMT-000008']);
    const onRead = vi.fn(async (code: string): Promise<CameraReadResult> => ({ tone: 'ok', message: `${code} cargado en ABC-123.` }));
    const user = renderButton(onRead);

    await user.click(screen.getByRole('button', { name: 'Cámara: Cargar escaneando con la cámara' }));
    expect(await screen.findByRole('dialog', { name: 'Cargar escaneando con la cámara' })).toBeInTheDocument();
    await waitFor(() => expect(onRead).toHaveBeenCalledTimes(2));
    expect(onRead.mock.calls.map(([code]) => code)).toEqual(['TMT-000007', 'TMT-000008']);
    expect(screen.getByLabelText('Imagen de la cámara')).toHaveAttribute('data-engine', 'native');
    expect(await screen.findByRole('status')).toHaveTextContent('TMT-000008 cargado en ABC-123.');
    expect(navigator.mediaDevices.getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });

    await user.click(screen.getByRole('button', { name: 'Terminar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(track.stopped).toBe(true);
  });

  it('a read that answers done closes the camera (Entregas)', async () => {
    window.HTMLMediaElement.prototype.play = () => Promise.resolve();
    const track = new FakeTrack();
    fakeCamera(async () => ({ getTracks: () => [track] }));
    fakeDetector(['TMT-000009']);
    const user = renderButton(async (code) => ({ tone: 'ok', message: `Envío ${code}`, done: true }));
    await user.click(screen.getByRole('button', { name: /^Cámara/ }));
    await waitFor(() => expect(track.stopped).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it.each([
    ['NotAllowedError', 'Permiso de cámara denegado: permite el uso de la cámara en el navegador para escanear.'],
    ['NotFoundError', 'No se encontró ninguna cámara en este dispositivo.'],
    ['NotReadableError', 'La cámara está siendo usada por otra aplicación.'],
  ])('says in Spanish why the camera did not open (%s)', async (name, message) => {
    fakeCamera(async () => {
      throw new DOMException('', name);
    });
    const user = renderButton(vi.fn());
    await user.click(screen.getByRole('button', { name: /^Cámara/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Cerrar la cámara' })).toBeInTheDocument();
  });

  it('says a page without camera access needs https', async () => {
    const user = renderButton(vi.fn());
    await user.click(screen.getByRole('button', { name: /^Cámara/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('hace falta una conexión segura https');
  });
});
