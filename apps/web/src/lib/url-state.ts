import { useSearchParams } from 'react-router';

/**
 * Screen state kept in the address query, so a reload, the back button or a shared link shows the
 * same view. Every key has a default: a missing key reads as its default, and a value equal to its
 * default leaves the address. A key whose default is not empty can still hold '' (`?dateFrom=`):
 * the Panel's cleared date, an open range rather than its default 30 days.
 */
export function useUrlState<K extends string>(defaults: Readonly<Record<K, string>>, options: { replace?: boolean } = {}) {
  const [search, setSearch] = useSearchParams();
  const keys = Object.keys(defaults) as K[];
  const values = readUrlState(search, defaults);

  /** null puts a key back to its default; keys left out of `patch` keep their value. */
  const set = (patch: Partial<Record<K, string | null>>) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const key of keys) {
          if (!(key in patch)) continue;
          const value = patch[key] ?? defaults[key];
          if (value === defaults[key]) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: options.replace },
    );

  return [values, set] as const;
}

/** A page number (or a page size among `allowed`) read from the address; anything else is the fallback. */
export function pageNumber(raw: string, fallback: number, allowed?: readonly number[]): number {
  const n = Number(raw);
  const valid = Number.isInteger(n) && n >= 1 && (!allowed || allowed.includes(n));
  return valid ? n : fallback;
}

/** The values useUrlState reads from an address query: a missing key is its default, a present one (even '') is kept. */
export function readUrlState<K extends string>(search: URLSearchParams, defaults: Readonly<Record<K, string>>): Record<K, string> {
  return Object.fromEntries((Object.keys(defaults) as K[]).map((key) => [key, search.get(key)?.trim() ?? defaults[key]])) as Record<K, string>;
}
