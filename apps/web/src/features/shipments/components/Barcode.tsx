import { useEffect, useState } from 'react';
import { Skeleton, Text } from '@mantine/core';

/**
 * A code128 barcode drawn as SVG by the bundled bwip-js (no CDN: works offline). The library is
 * loaded on first use so it stays out of the pages' own bundles.
 */
export function Barcode({ text, height = 12 }: { text: string; height?: number }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setSvg(null);
    setFailed(false);
    import('bwip-js/browser')
      .then(({ default: bwip }) => {
        const drawn = bwip.toSVG({ bcid: 'code128', text, height, includetext: true, textxalign: 'center', textsize: 9 });
        if (live) setSvg(drawn);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [text, height]);

  if (failed)
    return (
      <Text c="red" size="sm">
        No se pudo generar el código de barras.
      </Text>
    );
  if (!svg) return <Skeleton height={60} />;
  // The SVG comes from bwip-js for our own shipment code, never from user HTML.
  return (
    <div className="barcode" data-testid="barcode" role="img" aria-label={`Código de barras ${text}`} dangerouslySetInnerHTML={{ __html: svg }} />
  );
}
