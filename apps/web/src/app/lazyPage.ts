import { lazy, type ComponentType } from 'react';

// sessionStorage: one flag per tab, gone when the tab closes.
const RELOADED_FOR_CHUNK = 'tramo.reloadedForChunk';

/**
 * A route's page, loaded on first visit. A tab left open across an upgrade asks for a chunk of
 * the old build, which the server no longer has (404): the tab reloads once to get the new
 * build. The flag keeps a chunk that still fails after that reload from reloading for ever; the
 * route's error element then says so.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazy(async () => {
    try {
      const module = await load();
      sessionStorage.removeItem(RELOADED_FOR_CHUNK);
      return module;
    } catch (err) {
      if (sessionStorage.getItem(RELOADED_FOR_CHUNK)) throw err;
      sessionStorage.setItem(RELOADED_FOR_CHUNK, '1');
      window.location.reload();
      // The page is going away; the skeleton stays until it does.
      return new Promise<never>(() => {});
    }
  });
}
