import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Workspace } from '@hop/shared';
import { createHopClient, type HopClient } from '@hop/shared/client-core';
import { DASHBOARD_PATHS, dashboardPageAt, dashboardParamsAt, type DashboardPage } from '@hop/shared/dashboard-paths';
import { storedSession } from './session.js';
import { fetchSend } from './transport/fetch-send.js';
import { workspacesQuery } from './queries/workspaces.js';

/** What a workspace's page is given to ask for its own data as the app starts. */
export interface PageStart {
  queries: QueryClient;
  api: HopClient;
  workspace: Workspace;
  /** The path's parameters (`linkId`), as the router would give them. */
  params: Record<string, string>;
  /** The address's query (the links list's filters). */
  search: URLSearchParams;
}

/** A page's module: its component, and what it asks for as the app starts on it, if anything. */
export interface PageModule {
  default: ComponentType;
  startData?: (start: PageStart) => void;
}

/**
 * Asks, while the app's script runs and before its first render, for what the page it opens at
 * needs: the page's chunk (`preload`, which the server's HTML names as a modulepreload, evaluated
 * while React draws the shell) and, on a workspace's page, the caller's workspaces, which the page
 * waits for to know the workspace's id and the caller's role, and, once they and the page's module
 * are in, the page's own data (its `startData`). Asked by the render, each would wait for the render
 * to reach the component that asks, one after the other (docs/dashboard.md).
 */
export function startPage(
  queries: QueryClient,
  basename: string,
  preload: (page: DashboardPage) => (() => Promise<PageModule>) | undefined,
): DashboardPage | undefined {
  const at = window.location.pathname;
  const path = at.startsWith(basename) ? at.slice(basename.length) : at;
  const page = dashboardPageAt(path);
  if (!page) return undefined;
  const module = preload(page)?.();
  // A chunk that fails to load here is loaded again, and its failure shown, by the page.
  module?.catch(() => undefined);
  const session = storedSession();
  if (session && DASHBOARD_PATHS[page].startsWith('/:ws')) {
    const api = createHopClient({ baseUrl: window.location.origin, send: fetchSend, token: session.token, userAgent: 'hop-dashboard' });
    const params = dashboardParamsAt(page, path);
    const workspaces = queries.fetchQuery(workspacesQuery(api));
    // A failure here is the page's to show: it asks again as it renders.
    void Promise.all([workspaces, module]).then(([list, m]) => {
      const workspace = list.find((w) => w.slug === params.ws);
      if (workspace && m?.startData) m.startData({ queries, api, workspace, params, search: new URLSearchParams(window.location.search) });
    }).catch(() => undefined);
  }
  return page;
}
