import { useEffect, useState } from 'react';
import { pageCount, slicePage } from '@tramo/domain';

/** Client-side paging of a loaded list; goes back to a valid page when the list shrinks. */
export function useClientPaging<T>(rows: readonly T[], defaultSize: number) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultSize);
  const pages = pageCount(rows.length, pageSize);
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);
  return {
    page: Math.min(page, pages),
    pageSize,
    total: rows.length,
    items: slicePage(rows, Math.min(page, pages), pageSize),
    onPage: setPage,
    onPageSize: (size: number) => {
      setPageSize(size);
      setPage(1);
    },
    reset: () => setPage(1),
  };
}
