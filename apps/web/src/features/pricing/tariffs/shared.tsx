import { Alert, Select } from '@mantine/core';
import type { Branch } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import type { RouteRef } from '../api/tariffs.ts';

/** A route's name as the screens write it: 'Lima → Arequipa'. */
export const routeName = (branches: readonly Branch[], r: RouteRef) => {
  const name = (id: number) => branches.find((b) => b.id === id)?.name ?? `#${id}`;
  return `${name(r.originBranchId)} → ${name(r.destinationBranchId)}`;
};

export const money = (n: number | null) => (n === null ? '—' : `S/ ${n.toFixed(2)}`);

/** Origin and destination pickers of one route (the destination list leaves the origin out). */
export function RoutePicker({
  branches,
  value,
  onChange,
  labels = ['Origen', 'Destino'],
}: {
  branches: readonly Branch[];
  value: RouteRef;
  onChange(next: RouteRef): void;
  labels?: [string, string];
}) {
  const options = branches.map((b) => ({ value: String(b.id), label: b.name }));
  return (
    <>
      <Select
        label={labels[0]}
        data={options}
        value={String(value.originBranchId)}
        allowDeselect={false}
        onChange={(v) => {
          const o = Number(v);
          const d = value.destinationBranchId === o ? (branches.find((b) => b.id !== o)?.id ?? o) : value.destinationBranchId;
          onChange({ originBranchId: o, destinationBranchId: d });
        }}
      />
      <Select
        label={labels[1]}
        data={options.filter((o) => o.value !== String(value.originBranchId))}
        value={String(value.destinationBranchId)}
        allowDeselect={false}
        onChange={(v) => onChange({ ...value, destinationBranchId: Number(v) })}
      />
    </>
  );
}

export const firstRoute = (branches: readonly Branch[]): RouteRef => ({
  originBranchId: branches[0]?.id ?? 0,
  destinationBranchId: branches[1]?.id ?? 0,
});

/** A refused change: the server's Spanish message. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" role="alert" py={8}>
      {errorMessage(error)}
    </Alert>
  );
}
