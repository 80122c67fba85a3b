import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type LazyPage = LazyExoticComponent<ComponentType> & {
  /** Starts loading the page's code (once); rendering it later does not load it again. */
  preload: () => Promise<unknown>;
};

/**
 * A page loaded on first use, in its own chunk, so the login page's first load carries only what it needs.
 * `load` imports the page's module and picks its component: `lazyPage(() => import('./x').then((m) => m.XPage))`.
 */
export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loading: Promise<ComponentType> | undefined;
  const preload = () => {
    // A failed load (network down) may be tried again on the next render.
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
  return Object.assign(
    lazy(() => preload().then((component) => ({ default: component }))),
    { preload },
  );
}

/** Runs `task` once the browser is idle (after the current screen is usable), or soon where that is unsupported. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(task, 200);
  return () => clearTimeout(id);
}
