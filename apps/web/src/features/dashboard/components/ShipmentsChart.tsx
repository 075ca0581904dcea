import type { DashboardBucket, DashboardDay } from '../api/get-dashboard.ts';
import { StackedBars } from './StackedBars.tsx';

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

/** Shipments per period by status, stacked. */
export default function ShipmentsChart({ days, bucket }: { days: DashboardDay[]; bucket: DashboardBucket }) {
  const bars = days.map((d) => ({ label: bucketLabel(d.day, bucket), values: d.byStatus as Record<string, number> }));
  return <StackedBars bars={bars} series={SERIES} height={200} label="Envíos por periodo y estado" />;
}
