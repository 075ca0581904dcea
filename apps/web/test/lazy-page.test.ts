import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pageLoader } from '../src/app/lazyPage.ts';

const gone = () => Promise.reject(new Error('404: chunk of the old build'));
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a page chunk gone after an upgrade', () => {
  beforeEach(() => sessionStorage.clear());

  it('reloads the tab once; after that reload the same failure is thrown, not reloaded again', async () => {
    const reload = vi.fn();
    void pageLoader(gone, reload, 'users')();
    await settle();
    expect(reload).toHaveBeenCalledTimes(1);
    // The reloaded tab builds its loaders again: same page, same failure.
    await expect(pageLoader(gone, reload, 'users')()).rejects.toThrow('404');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('is not reset by another page finishing its load meanwhile (the Panel behind a quick click)', async () => {
    const reload = vi.fn();
    let finishPanel!: (m: { default: string }) => void;
    const panel = pageLoader(() => new Promise<{ default: string }>((resolve) => (finishPanel = resolve)), reload, 'panel')();
    void pageLoader(gone, reload, 'users')();
    await settle();
    finishPanel({ default: 'Panel' });
    await panel;
    expect(reload).toHaveBeenCalledTimes(1);
    await expect(pageLoader(gone, reload, 'users')()).rejects.toThrow('404');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a page that loads after its reload clears the flag, so a later upgrade reloads again', async () => {
    const reload = vi.fn();
    void pageLoader(gone, reload, 'users')();
    await settle();
    await pageLoader(() => Promise.resolve({ default: 'Usuarios' }), reload, 'users')();
    void pageLoader(gone, reload, 'users')();
    await settle();
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
