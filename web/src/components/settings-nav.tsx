import { NavLink } from 'react-router';
import type { Workspace } from '@hop/shared';
import { roleMayCall } from '@hop/shared';

/** The settings pages a role may open. */
export function SettingsNav({ workspace }: { workspace: Workspace }) {
  const base = `/${workspace.slug}/settings`;
  const items: [string, string, boolean][] = [
    [base, 'General', true],
    [`${base}/members`, 'Members', true],
    [`${base}/keys`, 'API keys', true],
    [`${base}/oauth-clients`, 'OAuth clients', roleMayCall(workspace.role, 'listOAuthClients')],
    [`${base}/billing`, 'Billing', workspace.role === 'owner'],
  ];
  return (
    <nav aria-label="Settings" className="tabs">
      {items.filter(([, , show]) => show).map(([to, label]) => <NavLink key={to} to={to} end>{label}</NavLink>)}
    </nav>
  );
}
