import { useEffect, useState } from 'react';
import { Skeleton } from '@mantine/core';
import { usePublicTrackingUrl } from '../../../lib/health.ts';

/**
 * A QR of the shipment's public tracking page (issue 18), drawn as SVG by the bundled `qrcode`
 * (loaded on first use, like the barcode) so it prints sharp at any size. `size` is in mm.
 */
export function TrackingQr({ code, size }: { code: string; size: number }) {
  const url = usePublicTrackingUrl(code);
  const [drawn, setDrawn] = useState<{ url: string; src: string } | null>(null);

  useEffect(() => {
    if (!url) return;
    let live = true;
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toString(url, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' }))
      .then((svg) => live && setDrawn({ url, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` }))
      .catch(() => live && setDrawn(null));
    return () => {
      live = false;
    };
  }, [url]);

  const box = { width: `${size}mm`, height: `${size}mm`, flex: 'none' } as const;
  if (!url || drawn?.url !== url) return <Skeleton style={box} />;
  return (
    <img src={drawn.src} alt={`Código QR de seguimiento ${url}`} data-testid="tracking-qr" data-url={url} style={{ ...box, display: 'block' }} />
  );
}
