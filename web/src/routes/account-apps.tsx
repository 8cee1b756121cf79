import { Link } from 'react-router';
import { useOAuthGrants, useRevokeOAuthGrant } from '../queries/account.js';
import { Page } from '../components/layout.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';

/** Connected apps: the OAuth grants the user gave (the CLI's logins included), each revocable. */
export default function AccountAppsPage() {
  const grants = useOAuthGrants();
  const revokeGrant = useRevokeOAuthGrant();
  const revoke = (id: string, name: string) => {
    if (window.confirm(`Revoke ${name}? It stops working at once.`)) revokeGrant.mutate(id);
  };
  return (
    <Page title="Connected apps">
      <p><Link to="/account">Back to your account</Link></p>
      <ErrorAlert error={grants.error ?? revokeGrant.error} />
      {grants.isLoading ? <Loading what="Loading connected apps" /> : null}
      {grants.data?.length === 0 ? <Empty><p>No app is connected to your account.</p></Empty> : null}
      {grants.data?.length ? (
        <div className="table-wrap" role="region" aria-label="Connected apps" tabIndex={0}>
          <table>
            <thead><tr><th scope="col">App</th><th scope="col">Workspaces</th><th scope="col">Access</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {grants.data.map((g) => (
                <tr key={g.id}>
                  <td>{g.clientName}</td>
                  <td>{g.workspaces.map((w) => w.name).join(', ') || '—'}</td>
                  <td>{g.scopes.map((s) => <span key={s} className="tag">{s}</span>)}</td>
                  <td>{new Date(g.createdAt).toLocaleString()}</td>
                  <td>{g.lastUsedAt ? new Date(g.lastUsedAt).toLocaleString() : 'never'}</td>
                  <td><button type="button" className="link-button" onClick={() => revoke(g.id, g.clientName)}>Revoke {g.clientName}</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}
