import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { dashboardPageAt } from '@hop/shared/dashboard-paths';
import type { DashboardPage } from '@hop/shared';

/** Each page's <title> (before " · Hop") and meta description: one entry per dashboard path. */
export const PAGE_META: Record<DashboardPage | 'notFound', { title: string; description: string }> = {
  signup: { title: 'Create an account', description: 'Create a Hop account to shorten links, track clicks and share QR codes.' },
  login: { title: 'Sign in', description: 'Sign in to your Hop dashboard.' },
  forgotPassword: { title: 'Reset your password', description: 'Get a link by e-mail to choose a new Hop password.' },
  resetPassword: { title: 'Choose a new password', description: 'Choose a new password for your Hop account.' },
  invite: { title: 'Join a workspace', description: 'Accept an invite to a Hop workspace.' },
  workspaces: { title: 'Workspaces', description: 'The Hop workspaces you belong to.' },
  account: { title: 'Account', description: 'Your name, password and signed-in sessions.' },
  accountApps: { title: 'Connected apps', description: 'Apps and CLI logins that act on your behalf, each revocable.' },
  workspace: { title: 'Links', description: 'The short links of this workspace.' },
  links: { title: 'Links', description: 'The short links of this workspace: search, filter, tag, copy and delete.' },
  newLink: { title: 'Create link', description: 'Create a short link with its slug, domain, tags and options.' },
  link: { title: 'Link', description: 'A short link: its destination, options, QR codes and click analytics.' },
  importLinks: { title: 'Import links', description: 'Import links from another shortener or a CSV file, with the plan shown first.' },
  analytics: { title: 'Analytics', description: 'Clicks across the workspace by day, country, device, browser and referrer.' },
  domains: { title: 'Domains', description: 'Custom domains for short links, with their DNS verification.' },
  webhooks: { title: 'Webhooks', description: 'Endpoints that receive signed events of this workspace.' },
  webhook: { title: 'Webhook', description: 'A webhook endpoint: its events, secret, test event and deliveries.' },
  settings: { title: 'Settings', description: 'The name and slug of this workspace.' },
  members: { title: 'Members', description: 'Who belongs to this workspace, their roles and pending invites.' },
  keys: { title: 'API keys', description: 'API keys of this workspace and their scopes.' },
  oauthClients: { title: 'OAuth clients', description: 'Applications registered to act in this workspace through OAuth.' },
  ciTrusts: { title: 'CI trusts', description: 'CI jobs that may exchange their OIDC ID token for a short-lived access token.' },
  billing: { title: 'Plan and billing', description: 'This workspace’s plan, its limits and its usage.' },
  notFound: { title: 'Page not found', description: 'There is no page at this address.' },
};

/** Sets the document's title and description from the page the address names. */
export function usePageMeta() {
  const { pathname } = useLocation();
  useEffect(() => {
    const id = dashboardPageAt(pathname) ?? 'notFound';
    const meta = PAGE_META[id];
    document.title = `${meta.title} · Hop`;
    document.querySelector('meta[name="description"]')?.setAttribute('content', meta.description);
  }, [pathname]);
}
