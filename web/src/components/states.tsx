import type { ReactNode } from 'react';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return <p className="loading" role="status">{what}…</p>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
