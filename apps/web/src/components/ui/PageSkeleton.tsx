import { Skeleton, Stack } from '@mantine/core';

/** What a page shows while its code or first data loads: its shape, never a blank screen. */
export function PageSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Cargando">
      <Skeleton height={32} width="40%" />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={28} />
      ))}
    </Stack>
  );
}

export function TableSkeleton({ rows = 5, cols }: { rows?: number; cols: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <tr key={r} aria-hidden>
          {Array.from({ length: cols }, (_, c) => (
            <td key={c} style={{ padding: 8 }}>
              <Skeleton height={14} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
