import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
// The decoder's .wasm as a file of our own build: by default zxing-wasm fetches it from a CDN, and
// branches scan with no internet.
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) } });

// What our labels print: the code as Code 128, the tracking page as QR.
const OPTIONS: ReaderOptions = { formats: ['Code128', 'QRCode'], tryHarder: true, maxNumberOfSymbols: 1 };
/** Frames are read at most this wide: a label fills the picture, and smaller frames decode faster on a tablet. */
const MAX_WIDTH = 1280;

let canvas: HTMLCanvasElement | null = null;

/** The text of the first code in the video's current frame, or null. */
export async function readFrame(video: HTMLVideoElement): Promise<string | null> {
  const { videoWidth, videoHeight } = video;
  if (!videoWidth || !videoHeight) return null;
  const scale = Math.min(1, MAX_WIDTH / videoWidth);
  const width = Math.round(videoWidth * scale);
  const height = Math.round(videoHeight * scale);
  canvas ??= document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(video, 0, 0, width, height);
  const [first] = await readBarcodes(context.getImageData(0, 0, width, height), OPTIONS);
  return first?.isValid ? first.text : null;
}
