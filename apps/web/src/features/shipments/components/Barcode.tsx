import { useEffect, useRef, useState } from 'react';
import { Skeleton, Text } from '@mantine/core';

/**
 * A code128 barcode drawn as SVG by the bundled JsBarcode (no CDN: works offline; 11 KB gzip where
 * bwip-js, which draws a hundred symbologies, took 246 KB). Loaded on first use so it stays out
 * of the pages' own bundles. The bars fill the width they are given, quiet zones included, at
 * `height` mm; the code is printed under them as text.
 */
export function Barcode({ text, height = 12 }: { text: string; height?: number }) {
  const svg = useRef<SVGSVGElement>(null);
  // What was drawn, and for which text: a new text reads as 'drawing' until its bars are drawn.
  const [result, setResult] = useState<{ text: string; state: 'drawn' | 'failed' } | null>(null);
  const state = result?.text === text ? result.state : 'drawing';

  useEffect(() => {
    let live = true;
    import('jsbarcode')
      .then(({ default: JsBarcode }) => {
        if (!live || !svg.current) return;
        // One unit per module, and the 10-module quiet zone code128 asks for on each side (none above or below).
        JsBarcode(svg.current, text, { format: 'CODE128', width: 1, height: 40, margin: 10, marginTop: 0, marginBottom: 0, displayValue: false });
        // Stretched to the box: bars keep their proportions to each other, only the scale changes.
        svg.current.setAttribute('preserveAspectRatio', 'none');
        setResult({ text, state: 'drawn' });
      })
      .catch(() => live && setResult({ text, state: 'failed' }));
    return () => {
      live = false;
    };
  }, [text]);

  if (state === 'failed')
    return (
      <Text c="red" size="sm">
        No se pudo generar el código de barras.
      </Text>
    );
  return (
    <div className="barcode" data-testid="barcode" role="img" aria-label={`Código de barras ${text}`}>
      {state === 'drawing' && <Skeleton height={60} />}
      <svg ref={svg} aria-hidden style={{ display: state === 'drawn' ? 'block' : 'none', width: '100%', height: `${height}mm` }} />
      {state === 'drawn' && <div style={{ textAlign: 'center', fontFamily: 'monospace', letterSpacing: '0.08em' }}>{text}</div>}
    </div>
  );
}
