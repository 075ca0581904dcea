import { expect, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { fakeServer, renderRoutes } from './render.tsx';

/*
 * What the form-messages tests share (issue 38, item 1): a form rendered against a fake server, a field
 * typed into and left, the message its input is described by, and what the form sent.
 */

// Mantine's autosize textarea listens to font loading, which jsdom does not implement.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });
}

/** What the input's aria-describedby points at: where Mantine puts the field's error. */
export const describedBy = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');

export function setup(element: ReactElement, answers: Record<string, [number, unknown]> = {}) {
  const server = fakeServer(answers);
  vi.stubGlobal('fetch', server.fetch);
  renderRoutes([{ path: '/', element }], '/');
  return { server, user: userEvent.setup() };
}

/** Types `value` (or nothing) into the field and leaves it; resolves to the input. */
export async function leave(user: ReturnType<typeof userEvent.setup>, label: RegExp, value: string) {
  const input = screen.getByLabelText(label);
  await user.clear(input);
  if (value) await user.type(input, value);
  else await user.click(input);
  await user.tab();
  return input;
}

export async function expectMessage(input: HTMLElement, message: string) {
  await waitFor(() => expect(describedBy(input)).toContain(message));
}

/** The calls that would change something: none may leave a refused form. */
export const sent = (server: ReturnType<typeof fakeServer>) => server.calls.filter((c) => c.method !== 'GET');
