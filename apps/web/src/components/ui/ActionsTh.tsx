import { Table, VisuallyHidden } from '@mantine/core';

/**
 * The header of a column of icon buttons: nothing to read on screen, but a screen reader names
 * the column ('Acciones') instead of announcing an empty header. The cell is positioned so the
 * hidden text (absolutely placed) stays inside the table's scroll box instead of widening the page.
 */
export function ActionsTh({ w }: { w?: number }) {
  return (
    <Table.Th w={w} pos="relative">
      <VisuallyHidden>Acciones</VisuallyHidden>
    </Table.Th>
  );
}
