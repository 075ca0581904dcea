import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { DashboardDay } from '../api/get-dashboard.ts';

const SERIES = [
  { name: 'Creado', color: 'yellow.5' },
  { name: 'En tránsito', color: 'blue.5' },
  { name: 'Entregado', color: 'teal.6' },
  { name: 'Anulado', color: 'red.4' },
] as const;

/** Shipments per day by status, stacked. Loaded on demand: the chart library is heavy. */
export default function ShipmentsChart({ days }: { days: DashboardDay[] }) {
  const data = days.map((d) => ({ day: `${d.day.slice(8, 10)}/${d.day.slice(5, 7)}`, ...d.byStatus }));
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
