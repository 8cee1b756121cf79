import { useDeferredValue, type ReactNode } from 'react';
import type { Workspace } from '@hop/shared';
import { useWorkspace } from '../workspace.js';
import { ErrorAlert } from './error-alert.js';
import { Loading } from './states.js';

/** Renders `children` with the path's workspace once known; says so when the caller has no such workspace. */
export function WithWorkspace({ children }: { children: (ws: Workspace) => ReactNode }) {
  const { workspace, isLoading, error } = useWorkspace();
  // The workspaces arrive as a synchronous update (TanStack Query's store), which would draw the
  // whole page in one long task; the page is drawn from this copy instead, in a transition that
  // React splits into short tasks. A later change shows the previous copy until then.
  const shown = useDeferredValue(workspace);
  if (isLoading || (workspace && !shown)) return <Loading />;
  if (error) return <ErrorAlert error={error} />;
  if (!shown) return <div role="alert" className="alert">No such workspace, or you are not a member of it.</div>;
  return <>{children(shown)}</>;
}
