import { lazy, type ComponentType } from 'react';

// sessionStorage: one flag per tab, gone when the tab closes.
const RELOADED_FOR_CHUNK = 'tramo.reloadedForChunk';

/** Each page's number in the order the router declares them: the same in a tab before and after its reload. */
let pages = 0;

/**
 * A route's page, loaded on first visit. A tab left open across an upgrade asks for a chunk of
 * the old build, which the server no longer has (404): the tab reloads once to get the new
 * build. The flag, naming the page that failed, keeps a chunk that still fails after that reload
 * from reloading for ever; the route's error element then says so. Only that page's own success
 * clears it: another page finishing its load meanwhile (the Panel behind a quick click) must not.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazy(pageLoader(load));
}

/** The loader behind `lazyPage`, apart so its reload rule can be tested without React. */
export function pageLoader<M>(
  load: () => Promise<M>,
  reload: () => void = () => window.location.reload(),
  page: string = String(pages++),
): () => Promise<M> {
  return async () => {
    try {
      const module = await load();
      if (sessionStorage.getItem(RELOADED_FOR_CHUNK) === page) sessionStorage.removeItem(RELOADED_FOR_CHUNK);
      return module;
    } catch (err) {
      if (sessionStorage.getItem(RELOADED_FOR_CHUNK) === page) throw err;
      sessionStorage.setItem(RELOADED_FOR_CHUNK, page);
      reload();
      // The page is going away; the skeleton stays until it does.
      return new Promise<never>(() => {});
    }
  };
}
