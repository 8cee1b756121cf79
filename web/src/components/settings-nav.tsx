import { NavLink } from 'react-router';
import type { Workspace } from '@hop/shared';
import { maySeeBilling, roleMayCall } from '@hop/shared/access';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import type { DashboardPage } from '@hop/shared';

/** The settings pages a role may open. */
export function SettingsNav({ workspace }: { workspace: Workspace }) {
  const items: [DashboardPage, string, boolean][] = [
    ['settings', 'General', true],
    ['members', 'Members', true],
    ['keys', 'API keys', true],
    ['oauthClients', 'OAuth clients', roleMayCall(workspace.role, 'listOAuthClients')],
    ['ciTrusts', 'CI trusts', roleMayCall(workspace.role, 'listCiTrusts')],
    ['billing', 'Billing', maySeeBilling(workspace.role)],
  ];
  return (
    <nav aria-label="Settings" className="tabs">
      {items.filter(([, , show]) => show).map(([page, label]) => {
        const to = dashboardPath(page, { ws: workspace.slug });
        return <NavLink key={to} to={to} end>{label}</NavLink>;
      })}
    </nav>
  );
}
