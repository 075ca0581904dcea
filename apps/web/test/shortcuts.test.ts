import { afterEach, describe, expect, it } from 'vitest';
import { isShortcut } from '../src/lib/shortcuts.ts';

const key = (init: KeyboardEventInit) => new KeyboardEvent('keydown', { altKey: true, ...init });

describe('the counter Alt shortcuts (issue 38)', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('takes plain Alt+letter by the physical key, in a text field too where Alt types nothing', () => {
    expect(isShortcut(key({ key: 'n', code: 'KeyN' }), 'N')).toBe(true);
    expect(isShortcut(key({ key: 'n', code: 'KeyN' }), 'P')).toBe(false);
    const input = document.body.appendChild(document.createElement('input'));
    input.focus();
    expect(isShortcut(key({ key: 'p', code: 'KeyP' }), 'P')).toBe(true);
  });

  it("leaves AltGr (Ctrl+Alt: '@', '€'), Shift, Meta, a held key and no Alt to the browser", () => {
    expect(isShortcut(key({ key: '€', code: 'KeyE', ctrlKey: true }), 'E')).toBe(false);
    expect(isShortcut(key({ key: 'E', code: 'KeyE', shiftKey: true }), 'E')).toBe(false);
    expect(isShortcut(key({ key: 'e', code: 'KeyE', metaKey: true }), 'E')).toBe(false);
    expect(isShortcut(key({ key: 'e', code: 'KeyE', repeat: true }), 'E')).toBe(false);
    expect(isShortcut(new KeyboardEvent('keydown', { key: 'e', code: 'KeyE' }), 'E')).toBe(false);
  });

  it("a Mac's Option+E types an accent in a text field: the character wins there, the shortcut elsewhere", () => {
    expect(isShortcut(key({ key: 'Dead', code: 'KeyE' }), 'E')).toBe(true);
    const input = document.body.appendChild(document.createElement('textarea'));
    input.focus();
    expect(isShortcut(key({ key: 'Dead', code: 'KeyE' }), 'E')).toBe(false);
  });

  it('fires nothing behind an open modal', () => {
    const dialog = document.body.appendChild(document.createElement('div'));
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    expect(isShortcut(key({ key: 'n', code: 'KeyN' }), 'N')).toBe(false);
  });
});
