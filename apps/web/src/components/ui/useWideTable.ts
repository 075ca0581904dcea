import { useMatches } from '@mantine/core';

/**
 * Whether an editable table (the billing forms' rows of inputs) has the counter PC's room (lg and
 * up), and its column widths: fixed there, left to the browser on the 1024 tablet so that every
 * input and the remove button fit without scrolling sideways.
 */
export function useWideTable() {
  const wide = useMatches({ base: false, lg: true });
  return { wide, w: (px: number) => (wide ? px : undefined) };
}
