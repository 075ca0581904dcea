/** Reads one frame of the camera: the text of the first code in it, or null. */
export type FrameReader = (video: HTMLVideoElement) => Promise<string | null>;

// The Barcode Detection API is not in TypeScript's DOM library yet: just what is used of it.
interface BarcodeDetectorInstance {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorConstructor {
  new (options: { formats: string[] }): BarcodeDetectorInstance;
  getSupportedFormats(): Promise<string[]>;
}

/** What our labels print: the code as Code 128, the tracking page as QR. */
const NATIVE_FORMATS = ['code_128', 'qr_code'];

/**
 * The browser's own detector where it has one that reads Code 128 (Chrome on Android, Safari);
 * otherwise the ZXing decoder in WebAssembly, fetched only now, when a camera opens, so it weighs
 * nothing on the pages' first load.
 */
export async function openFrameReader(): Promise<{ engine: 'native' | 'zxing'; read: FrameReader }> {
  const Native = (window as unknown as { BarcodeDetector?: BarcodeDetectorConstructor }).BarcodeDetector;
  if (Native) {
    try {
      const supported = await Native.getSupportedFormats();
      if (supported.includes('code_128')) {
        const detector = new Native({ formats: NATIVE_FORMATS.filter((f) => supported.includes(f)) });
        return { engine: 'native', read: async (video) => (await detector.detect(video))[0]?.rawValue ?? null };
      }
    } catch {
      // A detector that cannot list its formats is no detector: ZXing reads instead.
    }
  }
  const { readFrame } = await import('./zxing.ts');
  return { engine: 'zxing', read: readFrame };
}
