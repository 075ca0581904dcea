import { Button, Group, NumberInput, Pagination, Select, Text } from '@mantine/core';
import { lastNumberedPage, pageCount } from '@tramo/domain';
import { formatNumber } from '../../lib/format.ts';

/** Where a large list stands: a page number, and past the numbered pages the cursor it came by. */
export interface KeysetPosition {
  page: number;
  pageSize: number;
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * The Pager's `cursor` for a large list (shipments, movements, payments, documents): 'Siguiente'
 * follows the page's `next` cursor; 'Anterior' goes back into the numbered pages by number and
 * further out by the `prev` cursor. `go` writes the position (into the address).
 */
export function keysetCursor(
  at: KeysetPosition,
  answer: { next?: string | null | undefined; prev?: string | null | undefined } | undefined,
  go: (to: { page: number; after?: string; before?: string }) => void,
): NonNullable<PagerProps['cursor']> {
  return {
    numbered: lastNumberedPage(at.pageSize),
    active: Boolean(at.after || at.before),
    hasNext: Boolean(answer?.next),
    onNext: () => answer?.next && go({ page: at.page + 1, after: answer.next }),
    onPrevious: () =>
      at.page - 1 <= lastNumberedPage(at.pageSize) ? go({ page: at.page - 1 }) : answer?.prev && go({ page: at.page - 1, before: answer.prev }),
  };
}

/** A page number from the address: past the numbered pages (an old link) without a cursor, the last numbered page. */
export const numberedPage = (at: KeysetPosition) => (at.after || at.before ? at.page : Math.min(at.page, lastNumberedPage(at.pageSize)));

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
  /**
   * Keyset paging of a large list: page numbers up to `numbered`, then 'Siguiente' / 'Anterior'
   * (`active` once past them), so no page costs more than the first however deep.
   */
  /** Page numbers stop here (a list that pages by number only as far as that is cheap). */
  maxPages?: number;
  cursor?: { numbered: number; active: boolean; hasNext: boolean; onNext(): void; onPrevious(): void };
}

/** The same pager on every list: size choice, first/previous/next/last, and the count. */
export function Pager({ page, pageSize, total, pageSizes, onPage, onPageSize, withPageInput, totalCapped, cursor, maxPages }: PagerProps) {
  const pages = pageCount(total, pageSize);
  const numbered = Math.min(pages, cursor?.numbered ?? Infinity, maxPages ?? Infinity);
  // More rows than page numbers reach (or than a text search counts): 'Siguiente' goes on from the last number.
  const beyond = cursor !== undefined && (cursor.active || pages > cursor.numbered || (totalCapped === true && cursor.hasNext && page >= numbered));
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
        {cursor?.active ? (
          <>
            <Button variant="default" size="compact-sm" onClick={() => onPage(1)}>
              Primera página
            </Button>
            <Button variant="default" size="compact-sm" onClick={cursor.onPrevious}>
              ‹ Anterior
            </Button>
            <Text size="sm" aria-current="page">
              Página {formatNumber(page)}
            </Text>
          </>
        ) : (
          <Pagination
            total={numbered}
            value={page}
            onChange={onPage}
            withEdges={!beyond}
            size="sm"
            siblings={1}
            getControlProps={(control) => ({
              'aria-label': { first: 'Primera página', previous: 'Página anterior', next: 'Página siguiente', last: 'Última página' }[control],
            })}
          />
        )}
        {beyond && (
          <Button variant="default" size="compact-sm" disabled={!cursor.hasNext || (!cursor.active && page < numbered)} onClick={cursor.onNext}>
            Siguiente ›
          </Button>
        )}
      </Group>
    </Group>
  );
}
