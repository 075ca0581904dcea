import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { DashboardBucket, DashboardDay } from '../api/get-dashboard.ts';

const SERIES = [
  { name: 'Creado', color: 'yellow.5' },
  { name: 'En tránsito', color: 'blue.5' },
  { name: 'En agencia', color: 'cyan.5' },
  { name: 'Entregado', color: 'teal.6' },
  { name: 'Anulado', color: 'red.4' },
  { name: 'Devuelto', color: 'grape.5' },
] as const;

/** A bar's label from its first day (YYYY-MM-DD): dd/mm for days and weeks, mm/aaaa, aaaa. */
function bucketLabel(day: string, bucket: DashboardBucket): string {
  if (bucket === 'year') return day.slice(0, 4);
  if (bucket === 'month') return `${day.slice(5, 7)}/${day.slice(0, 4)}`;
  return `${day.slice(8, 10)}/${day.slice(5, 7)}`;
}

/** Shipments per period by status, stacked. Loaded on demand: the chart library is heavy. */
export default function ShipmentsChart({ days, bucket }: { days: DashboardDay[]; bucket: DashboardBucket }) {
  const data = days.map((d) => ({ day: bucketLabel(d.day, bucket), ...d.byStatus }));
  return (
    <BarChart
      h={200}
      data={data}
      dataKey="day"
      type="stacked"
      series={SERIES.map((s) => ({ ...s }))}
      withLegend
      legendProps={{ verticalAlign: 'top', height: 32 }}
      tickLine="y"
      gridAxis="y"
      barProps={{ isAnimationActive: false }}
      xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
      yAxisProps={{ allowDecimals: false, width: 32 }}
    />
  );
}
