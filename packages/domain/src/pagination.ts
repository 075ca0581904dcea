export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Client-side paging of an already loaded list (users, branches, customers screens). */
export function slicePage<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  const start = (Math.max(1, page) - 1) * pageSize;
  return rows.slice(start, start + pageSize);
}
