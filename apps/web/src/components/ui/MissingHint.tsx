import { Text } from '@mantine/core';
import { useWatch, type Control, type FieldValues } from 'react-hook-form';
import { missingFields, type Checkable } from '../../lib/forms.ts';

interface MissingHintProps<T extends FieldValues> {
  /** The primary button points here with aria-describedby. */
  id: string;
  control: Control<T, unknown, unknown>;
  /** The schema the form submits through: what it refuses is what is missing. */
  schema: Checkable;
  /** Field → its name in 'Falta: …', in the form's order (see `missingFields`). */
  labels: Readonly<Record<string, string>>;
  /** What the schema cannot know (a line the quote refused), after the fields. */
  more?: readonly string[];
  /** Said instead of the list while the button waits for something (the quote in flight). */
  waiting?: string | null;
}

/**
 * The line under a form's primary button saying why it cannot go yet: what is missing ('Falta: destino,
 * clave secreta') or what it waits for. It watches every value itself, so a keystroke re-renders this
 * line and not the whole form. Empty, it stays in the page so the button's aria-describedby always resolves.
 */
export function MissingHint<T extends FieldValues>({ id, control, schema, labels, more = [], waiting = null }: MissingHintProps<T>) {
  const values = useWatch({ control });
  const missing = [...missingFields(schema, values, labels), ...more];
  const text = waiting ?? (missing.length > 0 ? `Falta: ${missing.join(', ')}` : '');
  return (
    <Text id={id} size="sm" c="dimmed" ta="right" data-testid="missing-hint">
      {text}
    </Text>
  );
}
