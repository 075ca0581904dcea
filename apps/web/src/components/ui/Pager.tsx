import { Group, NumberInput, Pagination, Select, Text } from '@mantine/core';
import { pageCount } from '@tramo/domain';
import { formatNumber } from '../../lib/format.ts';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  pageSizes: readonly number[];
  onPage(page: number): void;
  onPageSize(size: number): void;
  /** A box to jump to a page number (the users screen has one). */
  withPageInput?: boolean;
  /** The server stopped counting at `total`: there are more. */
  totalCapped?: boolean;
}

/** The same pager on every list: size choice, first/previous/next/last, and the count. */
export function Pager({ page, pageSize, total, pageSizes, onPage, onPageSize, withPageInput, totalCapped }: PagerProps) {
  const pages = pageCount(total, pageSize);
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" mt="sm" gap="sm" wrap="wrap">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Filas por página
        </Text>
        <Select
          aria-label="Filas por página"
          w={80}
          size="xs"
          data={pageSizes.map(String)}
          value={String(pageSize)}
          onChange={(v) => v && onPageSize(Number(v))}
        />
        <Text size="sm" c="dimmed">
          {total === 0 ? '0 de 0' : `${from}–${to} de ${totalCapped ? 'más de ' : ''}${formatNumber(total)}`}
        </Text>
      </Group>
      <Group gap="xs">
        {withPageInput && (
          <NumberInput
            aria-label="Ir a la página"
            size="xs"
            w={70}
            min={1}
            max={pages}
            value={page}
            onChange={(v) => {
              const n = Number(v);
              if (Number.isInteger(n) && n >= 1 && n <= pages) onPage(n);
            }}
          />
        )}
        <Pagination
          total={pages}
          value={page}
          onChange={onPage}
          withEdges
          size="sm"
          siblings={1}
          getControlProps={(control) => ({
            'aria-label': { first: 'Primera página', previous: 'Página anterior', next: 'Página siguiente', last: 'Última página' }[control],
          })}
        />
      </Group>
    </Group>
  );
}
