import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * React.lazy for a chunk that may be asked for ahead of its first render (`preload`). Once loaded,
 * the module is handed to React as a thenable that answers at once, so the component renders
 * without first committing its fallback: a lazy component whose module is still pending commits
 * the fallback, and React then holds the content back until 300 ms after that commit (its throttle
 * on revealing Suspense content). A preload that fails is forgotten: the render loads the chunk
 * again, and shows its failure.
 */
export function lazyPreloaded<M extends { default: ComponentType<any> }>(load: () => Promise<M>): {
  Component: LazyExoticComponent<M['default']>;
  preload: () => Promise<M>;
} {
  let module: M | undefined;
  let loading: Promise<M> | undefined;
  const preload = () => (loading ??= load().then(
    (m) => (module = m),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  ));
  const Component = lazy(() => {
    const loaded = module;
    return loaded ? ({ then: (use: (m: M) => void) => use(loaded) } as Promise<M>) : preload();
  });
  return { Component, preload };
}
