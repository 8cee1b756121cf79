import type { ReactNode } from 'react';
import { Link, NavLink, Outlet, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from '../session.js';
import { roleMayCall } from '@hop/shared/access';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import type { DashboardPage } from '@hop/shared';
import { useApi } from '../api.js';
import { useWorkspace } from '../workspace.js';
import { ConfirmProvider } from './confirm.js';
import { usePageMeta } from '../page-meta.js';

/** Ends the session on the server too (its token stops working everywhere), then forgets it here. */
function SignOut() {
  const { signOut } = useSession();
  const api = useApi();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const leave = async () => {
    // Signed out here even when the server cannot be reached (or the session had already ended).
    await api.call('logout', {}).catch(() => undefined);
    signOut();
    queries.clear();
    navigate('/login');
  };
  return (
    <button type="button" className="link-button" onClick={() => void leave()}>
      Sign out
    </button>
  );
}

/** The workspace's sections; what a role may not open is not offered. */
function WorkspaceNav() {
  const { ws } = useParams();
  const { workspace } = useWorkspace();
  if (!ws) return null;
  const role = workspace?.role;
  const items: [DashboardPage, string, boolean][] = [
    ['links', 'Links', true],
    ['analytics', 'Analytics', true],
    ['domains', 'Domains', true],
    // Shown until the role is known, so the bar does not shift when it arrives.
    ['webhooks', 'Webhooks', !role || roleMayCall(role, 'listWebhooks')],
    ['settings', 'Settings', true],
  ];
  return (
    <nav aria-label="Workspace" className="ws-nav">
      {items.filter(([, , show]) => show).map(([path, label]) => (
        <NavLink key={path} to={dashboardPath(path, { ws })}>{label}</NavLink>
      ))}
    </nav>
  );
}

/** Header, navigation and the page's `<main>` landmark. */
export function Layout() {
  const { session } = useSession();
  const { ws } = useParams();
  usePageMeta();
  return (
    <>
      <a href="#main" className="skip">Skip to content</a>
      <header className="top">
        <Link to="/" className="brand">Hop</Link>
        {ws ? <Link to="/" className="ws-name" title="Switch workspace">{ws}</Link> : null}
        <span className="spacer" />
        {session ? (
          <>
            <Link to="/account" className="account">{session.user.name || session.user.email}</Link>
            <SignOut />
          </>
        ) : (
          <Link to="/login">Sign in</Link>
        )}
      </header>
      {session ? <WorkspaceNav /> : null}
      <main id="main" tabIndex={-1}>
        <ConfirmProvider>
          <Outlet />
        </ConfirmProvider>
      </main>
    </>
  );
}

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
        {actions ? <div className="actions">{actions}</div> : null}
      </div>
      {children}
    </>
  );
}
