import { useState, type RefObject } from 'react';
import type { FieldErrors, FieldValues, Path, Resolver, UseFormReturn, UseFormSetError } from 'react-hook-form';
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

/** The least a schema answers: enough to list what it still refuses, whatever its input and output types. */
export interface Checkable {
  safeParse(values: unknown): { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[] }[] } };
}

/**
 * What the form still lacks, in the words of `labels` (field → its name in the sentence 'Falta: …'), in
 * the order of `labels`: the fields the schema refuses in `values`. A refusal on a field `labels` does not
 * name (a rule across fields) reads 'otros datos', so the list is never silently short.
 */
export function missingFields(schema: Checkable, values: unknown, labels: Readonly<Record<string, string>>): string[] {
  const result = schema.safeParse(values);
  if (result.success) return [];
  const failing = new Set(result.error.issues.map((i) => String(i.path[0] ?? '')));
  const named = Object.entries(labels)
    .filter(([field]) => failing.has(field))
    .map(([, label]) => label);
  const unnamed = [...failing].some((field) => !(field in labels));
  return [...new Set(unnamed ? [...named, 'otros datos'] : named)];
}

/**
 * After a refused submit, the focus goes to the first wrong field on screen. react-hook-form focuses the
 * first one it registered, and a Controller (a select, a document box) registers after the plain inputs,
 * so it would land on 'Nombres' below a wrong 'Número de documento'.
 */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  // After the next frame and the task after it: React commits the errors in a task of its own, which a
  // bare frame callback can precede in a browser.
  requestAnimationFrame(() => setTimeout(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0));
}

/** The message a form holds for `name`, for an input's `error` (the blocks of a big form read it from the form they are given). */
export function fieldError<T extends FieldValues>(form: Pick<UseFormReturn<T>, 'getFieldState' | 'formState'>, name: Path<T>): string | undefined {
  return form.getFieldState(name, form.formState).error?.message;
}

/**
 * A resolver for a form whose rules answer a list of messages placed on fields (`field path → message`,
 * as billing's `invoiceFormProblems` does): react-hook-form then shows each on its input when it is left
 * and on submit. A field path with digits ('items.0.quantity') nests like the form's arrays.
 */
export function fieldMessagesResolver<T extends FieldValues>(judge: (values: T) => Readonly<Record<string, string>>): Resolver<T> {
  return (values) => {
    const fields = judge(values);
    const errors: Record<string, unknown> = {};
    for (const [path, message] of Object.entries(fields)) {
      const keys = path.split('.');
      let node = errors;
      keys.slice(0, -1).forEach((key) => {
        node[key] ??= {};
        node = node[key] as Record<string, unknown>;
      });
      node[keys[keys.length - 1] ?? path] = { type: 'rule', message };
    }
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors: errors as FieldErrors<T> };
  };
}

/**
 * After code changes a group of values (a customer picked, a document looked up), the messages already
 * shown on it are judged again, so none stays for a value that is no longer there; a group that shows
 * none is left alone, so nothing appears on a field the user has not reached.
 */
export function recheckShown<T extends FieldValues>(form: Pick<UseFormReturn<T>, 'getFieldState' | 'trigger'>, name: Path<T>) {
  if (form.getFieldState(name).invalid) void form.trigger(name);
}

/**
 * What a billing form shows under its button after a submit: the problems no field holds
 * ('Corrige:') and a failure of the request. `refuse` is a refused submit: the fields say their
 * own, the rest goes under the button, and the focus goes to the first wrong field.
 */
export function useSubmitProblems(formRef: RefObject<HTMLFormElement | null>) {
  const [problems, setProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const refuse = (rest: string[]) => {
    setFailure(null);
    setProblems(rest);
    focusFirstInvalid(formRef.current);
  };
  return { problems, setProblems, failure, setFailure, refuse };
}
