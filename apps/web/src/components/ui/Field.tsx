import type { ReactNode } from 'react';
import { Text } from '@mantine/core';

/** A labelled value of a summary: the small caps label above, the value below (names and descriptions break anywhere). */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" className="user-text">
        {children}
      </Text>
    </div>
  );
}
