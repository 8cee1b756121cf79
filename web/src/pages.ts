import type { DashboardPage } from '@hop/shared/dashboard-paths';

/**
 * Each page's module in `routes/` and whether it needs a session. The app loads each as a chunk of
 * its own when opened (main.tsx); the build lists each page's chunks, which the server preloads
 * from the HTML of that page (vite.config.ts, server/src/api/dashboard-static.ts).
 */
export const PAGE_MODULES: Partial<Record<DashboardPage, readonly [module: string, signedIn: boolean]>> = {
  signup: ['signup', false],
  login: ['login', false],
  forgotPassword: ['forgot-password', false],
  resetPassword: ['reset-password', false],
  invite: ['invite-accept', false],
  workspaces: ['workspaces', true],
  account: ['account', true],
  accountApps: ['account-apps', true],
  links: ['links-list', true],
  newLink: ['link-new', true],
  importLinks: ['links-import', true],
  link: ['link-detail', true],
  analytics: ['analytics', true],
  domains: ['domains', true],
  webhooks: ['webhooks-list', true],
  webhook: ['webhook-detail', true],
  settings: ['settings', true],
  members: ['settings-members', true],
  keys: ['settings-keys', true],
  oauthClients: ['settings-oauth-clients', true],
  ciTrusts: ['settings-ci-trusts', true],
  billing: ['settings-billing', true],
};

/** The file, beside the built app, that lists each page's chunks. */
export const PAGE_CHUNKS_FILE = 'page-chunks.json';
