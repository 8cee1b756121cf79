import type { QueryClient } from '@tanstack/react-query';
import { createHopClient } from '@hop/shared/client-core';
import { DASHBOARD_PATHS, dashboardPageAt, type DashboardPage } from '@hop/shared/dashboard-paths';
import { storedSession } from './session.js';
import { fetchSend } from './transport/fetch-send.js';
import { workspacesQuery } from './queries/workspaces.js';

/**
 * The page the app opens at, with what it needs asked for while the app's script runs, before the
 * first render: on a workspace's page, the caller's workspaces, which the page waits for to know
 * the workspace's id and the caller's role. Asked by the render, they would wait for it to reach
 * the page, and the page's own data for both, one after the other (docs/dashboard.md).
 */
export function startPage(queries: QueryClient, basename: string): DashboardPage | undefined {
  const path = window.location.pathname;
  const page = dashboardPageAt(path.startsWith(basename) ? path.slice(basename.length) : path);
  const session = storedSession();
  if (page && session && DASHBOARD_PATHS[page].startsWith('/:ws')) {
    const api = createHopClient({ baseUrl: window.location.origin, send: fetchSend, token: session.token, userAgent: 'hop-dashboard' });
    void queries.prefetchQuery(workspacesQuery(api));
  }
  return page;
}
