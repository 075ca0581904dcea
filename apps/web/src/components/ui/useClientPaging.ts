import { useState } from 'react';
import { pageCount, slicePage } from '@tramo/domain';

/** Client-side paging of a loaded list; shows the last page when the list shrinks below the chosen one. */
export function useClientPaging<T>(rows: readonly T[], defaultSize: number) {
  const [chosen, setChosen] = useState(1);
  const [pageSize, setPageSize] = useState(defaultSize);
  const page = Math.min(chosen, pageCount(rows.length, pageSize));
  return {
    page,
    pageSize,
    total: rows.length,
    items: slicePage(rows, page, pageSize),
    onPage: setChosen,
    onPageSize: (size: number) => {
      setPageSize(size);
      setChosen(1);
    },
    reset: () => setChosen(1),
  };
}
