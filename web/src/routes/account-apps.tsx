import { Link } from 'react-router';
import { useOAuthGrants, useRevokeOAuthGrant } from '../queries/account.js';
import { Page } from '../components/layout.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { DataTable } from '../components/data-table.js';
import { useConfirm } from '../components/confirm.js';

/** Connected apps: the OAuth grants the user gave (the CLI's logins included), each revocable. */
export default function AccountAppsPage() {
  const confirm = useConfirm();
  const grants = useOAuthGrants();
  const revokeGrant = useRevokeOAuthGrant();
  const revoke = (id: string, name: string) => {
    void confirm({ message: `Revoke ${name}? It stops working at once.`, action: 'Revoke' }).then((yes) => { if (yes) revokeGrant.mutate(id); });
  };
  return (
    <Page title="Connected apps">
      <p><Link to="/account">Back to your account</Link></p>
      <ErrorAlert error={grants.error ?? revokeGrant.error} />
      {grants.isLoading ? <Loading what="Loading connected apps" /> : null}
      {grants.data?.length === 0 ? <Empty><p>No app is connected to your account.</p></Empty> : null}
      {grants.data?.length ? (
        <DataTable label="Connected apps" rows={grants.data} rowKey={(g) => g.id} columns={[
          { key: 'app', header: 'App', phone: 'title', cell: (g) => g.clientName },
          { key: 'workspaces', header: 'Workspaces', cell: (g) => g.workspaces.map((w) => w.name).join(', ') || '—' },
          { key: 'scopes', header: 'Access', phone: 'wide', cell: (g) => g.scopes.map((s) => <span key={s} className="tag">{s}</span>) },
          { key: 'created', header: 'Connected', cell: (g) => new Date(g.createdAt).toLocaleString() },
          { key: 'used', header: 'Last used', cell: (g) => (g.lastUsedAt ? new Date(g.lastUsedAt).toLocaleString() : 'never') },
          { key: 'actions', header: '', label: 'Actions', phone: 'unlabelled', cell: (g) => <button type="button" className="link-button" onClick={() => revoke(g.id, g.clientName)}>Revoke {g.clientName}</button> },
        ]} />
      ) : null}
    </Page>
  );
}
