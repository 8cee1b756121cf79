import { useDeferredValue, type ReactNode } from 'react';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return <p className="loading" role="status">{what}…</p>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/**
 * Its children, rendered just after the rest of the page: in a transition, which React splits into
 * short tasks, so a large part below the fold (the link form) does not block the first render of
 * what is on screen. Nothing takes its place meanwhile.
 */
export function Deferred({ children }: { children: ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? <>{children}</> : null;
}
