import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from './api.ts';

/**
 * Puts a server answer where the spec says: each `fields` entry on its input (when the form has
 * that input), and returns the message for a form alert when no field took it.
 */
export function applyServerErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  knownFields: readonly Path<T>[],
  fallback = 'Error desconocido',
): string | null {
  if (err instanceof ApiError) {
    let placed = false;
    for (const [field, message] of Object.entries(err.fields)) {
      if ((knownFields as readonly string[]).includes(field)) {
        setError(field as Path<T>, { type: 'server', message });
        placed = true;
      }
    }
    if (placed) return null;
  }
  return errorMessage(err, fallback);
}
