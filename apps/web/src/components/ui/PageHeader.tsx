import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';

/**
 * One header everywhere: title (and a line of context) on the left, filters and the primary action on the right.
 * The title is the page's one h1 (screen readers jump to it), drawn at h2 size to keep the dense look.
 */
export function PageHeader({ title, description, children }: { title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </div>
      {children && (
        <Group gap="sm" wrap="wrap">
          {children}
        </Group>
      )}
    </Group>
  );
}
