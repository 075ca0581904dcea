import { useLayoutEffect, useRef, useState } from 'react';
import { Group, Text } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';

export interface BarSeries {
  name: string;
  /** A Mantine colour, 'teal.6'. */
  color: string;
}

interface StackedBarsProps {
  /** One bar per entry: its label and a count per series name. */
  bars: { label: string; values: Record<string, number> }[];
  series: readonly BarSeries[];
  height: number;
  /** What the chart shows, for screen readers. */
  label: string;
}

const AXIS_WIDTH = 32;
const LABEL_HEIGHT = 20;
/** Room above the highest tick so its label is not cut. */
const TOP = 8;
/** The room an x label needs so that two never touch. */
const LABEL_SLOT = 44;

const cssColor = (color: string) => `var(--mantine-color-${color.replace('.', '-')})`;

/** At most four steps of 1, 2 or 5 × 10ⁿ covering `max`, so the axis reads 0, 5, 10, 15. */
export function niceTicks(max: number): number[] {
  if (max <= 0) return [0];
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough && Number.isInteger(s)) ?? Math.ceil(rough);
  const ticks: number[] = [];
  for (let t = 0; t < max + step; t += step) ticks.push(t);
  return ticks;
}

/** Which x labels to print: every k-th so they fit, always the first and the last (a label too close to the last gives way). */
export function visibleLabels(count: number, width: number): Set<number> {
  const every = Math.max(1, Math.ceil((count * LABEL_SLOT) / Math.max(width, 1)));
  const last = count - 1;
  const shown = new Set<number>();
  for (let i = 0; i < count; i += every) if (i === 0 || last - i >= every) shown.add(i);
  if (count > 0) shown.add(last);
  return shown;
}

/**
 * Stacked bars drawn as plain SVG: the Panel's one chart does not need a chart library (recharts
 * weighed 119 kB gzip, more than the rest of the first load). Each bar carries its figures as a
 * native tooltip.
 */
export function StackedBars({ bars, series, height, label }: StackedBarsProps) {
  const { ref: observed, width: observedWidth } = useElementSize();
  const box = useRef<HTMLDivElement>(null);
  const ref = useMergedRef(observed, box);
  const [mountWidth, setMountWidth] = useState(0);
  // The width as the chart mounts, so that the bars are in the page's first paint: the resize
  // observer reports it a frame or two later (issue 37: on a slow device, half a second).
  useLayoutEffect(() => setMountWidth(box.current?.clientWidth ?? 0), []);
  const width = observedWidth || mountWidth;
  const plotHeight = height - LABEL_HEIGHT - TOP;
  const totals = bars.map((b) => series.reduce((sum, s) => sum + (b.values[s.name] ?? 0), 0));
  const ticks = niceTicks(Math.max(0, ...totals));
  const top = ticks.at(-1) || 1;
  const plotWidth = Math.max(0, width - AXIS_WIDTH);
  const band = bars.length > 0 ? plotWidth / bars.length : 0;
  const barWidth = Math.max(1, Math.min(28, band * 0.7));
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const shown = visibleLabels(bars.length, plotWidth);

  return (
    <div>
      <Group gap="md" justify="flex-end" mb={6} wrap="wrap">
        {series.map((s) => (
          <Group key={s.name} gap={6} wrap="nowrap">
            <span aria-hidden style={{ width: 10, height: 10, borderRadius: 5, background: cssColor(s.color) }} />
            <Text size="sm">{s.name}</Text>
          </Group>
        ))}
      </Group>
      <div ref={ref} style={{ width: '100%', height }}>
        {width > 0 && (
          <svg width={width} height={height} role="img" aria-label={label}>
            {ticks.map((t) => (
              <g key={t}>
                <line x1={AXIS_WIDTH} x2={width} y1={y(t)} y2={y(t)} stroke="var(--mantine-color-gray-3)" strokeDasharray="4 4" />
                <text x={AXIS_WIDTH - 6} y={y(t)} dy="0.32em" textAnchor="end" fontSize={12} fill="var(--mantine-color-dimmed)">
                  {t}
                </text>
              </g>
            ))}
            {bars.map((b, i) => {
              const x = AXIS_WIDTH + i * band + (band - barWidth) / 2;
              let base = 0;
              return (
                <g key={i}>
                  <title>{`${b.label}: ${series.map((s) => `${s.name} ${b.values[s.name] ?? 0}`).join(', ')}`}</title>
                  {series.map((s) => {
                    const value = b.values[s.name] ?? 0;
                    if (value === 0) return null;
                    const rect = (
                      <rect key={s.name} x={x} width={barWidth} y={y(base + value)} height={y(base) - y(base + value)} fill={cssColor(s.color)} />
                    );
                    base += value;
                    return rect;
                  })}
                  {/* The whole band answers the pointer, so thin or empty bars still show their tooltip. */}
                  <rect x={AXIS_WIDTH + i * band} width={band} y={TOP} height={plotHeight} fill="transparent" />
                  {shown.has(i) && <XLabel x={x + barWidth / 2} y={height - 4} width={width} text={b.label} />}
                </g>
              );
            })}
          </svg>
        )}
      </div>
    </div>
  );
}

/** An x label, centred under its bar unless that would cut it at the right edge. */
function XLabel({ x, y, width, text }: { x: number; y: number; width: number; text: string }) {
  const atEdge = x + (text.length * 7) / 2 > width;
  return (
    <text x={atEdge ? width - 1 : x} y={y} textAnchor={atEdge ? 'end' : 'middle'} fontSize={12} fill="var(--mantine-color-dimmed)">
      {text}
    </text>
  );
}
