import sharp from 'sharp';

/**
 * Every photo the API stores (proof of delivery, incidents) is decoded and encoded again here
 * (issue 31, F11): what is kept is pixels this server wrote, never the client's bytes, so an SVG,
 * an HTML page or a crafted file sent as a PNG is refused instead of served back to staff, and the
 * camera's metadata (GPS position, device) is dropped.
 */
export type StoredImageType = 'image/jpeg' | 'image/png' | 'image/webp';

const FORMAT: Record<StoredImageType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * Far above any photo the clients send (the browser resizes to 1280 px), far below what would let
 * a small compressed file expand into gigabytes of pixels.
 */
const MAX_PIXELS = 40_000_000;

/**
 * `bytes` decoded as the `type` it claims and encoded again in that type (turned upright by its
 * EXIF orientation); null when they are not a whole image of that type. libvips reads SVG, PDF and
 * more, so the decoded format is checked against the claimed one before any pixel is read.
 */
export async function reencodeImage(bytes: Buffer, type: StoredImageType): Promise<Buffer | null> {
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS, animated: false });
    const { format } = await image.metadata();
    if (format !== FORMAT[type]) return null;
    const upright = image.rotate();
    if (type === 'image/jpeg') return await upright.jpeg({ quality: 85 }).toBuffer();
    if (type === 'image/png') return await upright.png({ compressionLevel: 9 }).toBuffer();
    return await upright.webp({ quality: 85 }).toBuffer();
  } catch {
    // libvips' own errors (truncated data, unknown format, too many pixels) all mean the same to the client.
    return null;
  }
}
