import { createElement, lazy, useState, type ComponentType } from 'react';

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
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  const loader = pageLoader(load);
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (loading ??= loader().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(preload);
  // A page already loaded (preload, which the app calls for the page it starts on) renders at
  // once: through lazy() it would first show the skeleton, and React waits 300 ms before it
  // replaces a skeleton it has just shown. Chosen once, as the page mounts: switching later would
  // mount the page anew.
  const Page = () => {
    const [component] = useState(() => loaded ?? Lazy);
    return createElement(component);
  };
  return Object.assign(Page, { preload });
}

/** A route's page as lazyPage makes it: a component, and what starts loading it. */
export type LazyPage = ComponentType & { preload(): Promise<unknown> };

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
