import type { ReactNode } from 'react';
import type { Workspace } from '@hop/shared';
import { useWorkspace } from '../workspace.js';
import { ErrorAlert } from './error-alert.js';
import { Loading } from './states.js';

/** Renders `children` with the path's workspace once known; says so when the caller has no such workspace. */
export function WithWorkspace({ children }: { children: (ws: Workspace) => ReactNode }) {
  const { workspace, isLoading, error } = useWorkspace();
  if (isLoading) return <Loading />;
  if (error) return <ErrorAlert error={error} />;
  if (!workspace) return <div role="alert" className="alert">No such workspace, or you are not a member of it.</div>;
  return <>{children(workspace)}</>;
}
