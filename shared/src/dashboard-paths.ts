// The dashboard's pages, below its base URL (`/app`): the web app's routes, the CLI's `hop open`,
// and the links the server puts in e-mails and errors (invites, password resets, the upgrade page)
// are built from these, so a page moves in one place.

export const DASHBOARD_PATHS = {
  signup: '/signup',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  invite: '/invites/:token',
  workspaces: '/',
  account: '/account',
  accountApps: '/account/apps',
  workspace: '/:ws',
  links: '/:ws/links',
  newLink: '/:ws/links/new',
  importLinks: '/:ws/links/import',
  link: '/:ws/links/:linkId',
  analytics: '/:ws/analytics',
  domains: '/:ws/domains',
  webhooks: '/:ws/webhooks',
  webhook: '/:ws/webhooks/:webhookId',
  settings: '/:ws/settings',
  members: '/:ws/settings/members',
  keys: '/:ws/settings/keys',
  oauthClients: '/:ws/settings/oauth-clients',
  ciTrusts: '/:ws/settings/ci-trusts',
  billing: '/:ws/settings/billing',
} as const;

export type DashboardPage = keyof typeof DASHBOARD_PATHS;

/** A page's path with its parameters filled in (each percent-encoded): `dashboardPath('link', {ws, linkId})`. */
export function dashboardPath(page: DashboardPage, params: Record<string, string> = {}): string {
  return DASHBOARD_PATHS[page].replace(/:([A-Za-z]+)/g, (_all, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`dashboard page ${page} needs ${name}`);
    return encodeURIComponent(value);
  });
}

const segments = (path: string) => path.split('/').filter(Boolean);

/**
 * The page a path below the dashboard's base opens, as the app's router picks it: the pattern with
 * as many segments, whose fixed segments are equal, and the most of them fixed (`/acme/links/new` is
 * `newLink`, not `link`). The server preloads that page's chunk, and the app asks for it and its data
 * before its first render.
 */
export function dashboardPageAt(path: string): DashboardPage | undefined {
  const parts = segments(path);
  let best: { page: DashboardPage; fixed: number } | undefined;
  for (const [page, pattern] of Object.entries(DASHBOARD_PATHS) as [DashboardPage, string][]) {
    const want = segments(pattern);
    if (want.length !== parts.length) continue;
    if (!want.every((w, i) => w.startsWith(':') || w === parts[i])) continue;
    const fixed = want.filter((w) => !w.startsWith(':')).length;
    if (!best || fixed > best.fixed) best = { page, fixed };
  }
  return best?.page;
}

/**
 * The parameters of a path opened on `page` (the inverse of `dashboardPath`): `{ ws, linkId }`,
 * each decoded as the router decodes it. A segment that is not valid percent-encoding is kept as
 * it stands, so a mistyped address shows the page's "not found" rather than stopping the app.
 */
export function dashboardParamsAt(page: DashboardPage, path: string): Record<string, string> {
  const parts = segments(path);
  const params: Record<string, string> = {};
  segments(DASHBOARD_PATHS[page]).forEach((w, i) => {
    if (!w.startsWith(':') || parts[i] === undefined) return;
    try {
      params[w.slice(1)] = decodeURIComponent(parts[i]);
    } catch {
      params[w.slice(1)] = parts[i];
    }
  });
  return params;
}
