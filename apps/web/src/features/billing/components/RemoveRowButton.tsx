import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';

/** The trash button that ends every editable row of the issuing forms (items, instalments, guides, plates, drivers). */
export function RemoveRowButton({ label, onRemove, disabled, ...props }: { label: string; onRemove(): void; disabled?: boolean } & ActionIconProps) {
  return (
    <ActionIcon variant="subtle" color="red" aria-label={label} disabled={disabled} onClick={onRemove} {...props}>
      <IconTrash size={16} />
    </ActionIcon>
  );
}
