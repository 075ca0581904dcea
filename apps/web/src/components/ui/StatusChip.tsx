import { Badge, type BadgeProps } from '@mantine/core';
import { statusTone, type StatusTone } from '@tramo/domain';

const TONE_COLORS: Record<StatusTone, string> = {
  created: 'yellow',
  inTransit: 'blue',
  atAgency: 'cyan',
  delivered: 'teal',
  returned: 'grape',
  cancelled: 'red',
};

/** The one status chip: its colour follows the status text (spec section 4), on every page. */
export function StatusChip({ status, ...props }: { status: string } & Omit<BadgeProps, 'color' | 'children'>) {
  return (
    // A chip is never truncated: in a dense table 'Cre…' could be any status.
    <Badge
      variant="light"
      tt="none"
      radius="sm"
      color={TONE_COLORS[statusTone(status)]}
      styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}
      {...props}
    >
      {status}
    </Badge>
  );
}
