import { useEffect } from 'react';

/**
 * The counter's Alt shortcuts (issue 38): Alt+N new shipment, Alt+P pay, Alt+E label. Named here so
 * the tooltips, `aria-keyshortcuts` and the handlers say the same.
 */
export const SHORTCUTS = { newShipment: 'N', pay: 'P', label: 'E' } as const;
export type ShortcutLetter = (typeof SHORTCUTS)[keyof typeof SHORTCUTS];

export const shortcutLabel = (letter: ShortcutLetter) => `Alt+${letter}`;

/** A tooltip's text: the action and its keys. */
export const withShortcut = (action: string, letter: ShortcutLetter) => `${action} (${shortcutLabel(letter)})`;

const typing = (el: Element | null) =>
  el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'submit'].includes(el.type));

/**
 * Is this key press the page's Alt+letter? Plain Alt only: Ctrl+Alt is AltGr on Windows, which types
 * '@' and '€' on Latin American keyboards; Shift and Meta combinations belong to the browser and the
 * system. Matched by the physical key, since a Mac's Option+N answers a tilde as its `key`; and where
 * that Option key types a character (its `key` is not the letter) inside a text field, the character
 * wins. While a modal is open the dialog owns the keyboard: no page shortcut fires behind it.
 */
export function isShortcut(e: KeyboardEvent, letter: ShortcutLetter): boolean {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.repeat) return false;
  if (e.code !== `Key${letter}`) return false;
  if (typing(document.activeElement) && e.key.toUpperCase() !== letter) return false;
  return document.querySelector('[role="dialog"][aria-modal="true"]') === null;
}

/**
 * Runs `run` on Alt+`letter` anywhere on the page while it is given; `null`/`false` = not now (the
 * browser keeps the keys: nothing is prevented when the page has nothing to do with them).
 */
export function useShortcut(letter: ShortcutLetter, run: (() => void) | null | false) {
  useEffect(() => {
    if (!run) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isShortcut(e, letter)) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [letter, run]);
}
