import { useState } from 'react';
import { roleMayCall } from '@hop/shared/access';
import { CreateOAuthClientBodySchema, OAUTH_CLIENT_TYPES } from '@hop/shared/oauth';
import type { CreatedOAuthClient, Workspace } from '@hop/shared';
import { useCreateOAuthClient, useDeleteOAuthClient, useOAuthClients, useRegenerateOAuthClientSecret } from '../queries/oauth-clients.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { SettingsNav } from '../components/settings-nav.js';
import { Field, SelectField } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { SecretOnce } from '../components/secret-once.js';
import { CopyButton } from '../components/copy-button.js';
import { useConfirm } from '../components/confirm.js';

function CreateClientForm({ workspace, onCreated }: { workspace: Workspace; onCreated: (c: CreatedOAuthClient) => void }) {
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateOAuthClientBodySchema, {
    read: (f) => ({ name: f.get('name'), type: f.get('type'), redirectUris: String(f.get('redirectUris') ?? '').split(/\s+/).filter(Boolean) }),
    mutation: useCreateOAuthClient(workspace.id),
    onSuccess: onCreated,
  });
  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <h2>Register an application</h2>
      <Field label="Name" name="name" required error={errors.name} />
      <SelectField label="Type" name="type" defaultValue="confidential" error={errors.type}
        options={OAUTH_CLIENT_TYPES.map((t) => ({ value: t, label: t === 'confidential' ? 'Confidential (a server that keeps a secret)' : 'Public (a native or browser app, PKCE only)' }))} />
      <Field label="Redirect URIs" name="redirectUris" required error={errors.redirectUris} hint="Separated by spaces. Loopback URIs match any port." />
      <ErrorAlert error={alert} />
      <button type="submit" disabled={busy}>Create OAuth client</button>
    </form>
  );
}

function Clients({ workspace }: { workspace: Workspace }) {
  const confirm = useConfirm();
  const [created, setCreated] = useState<CreatedOAuthClient | null>(null);
  const list = useOAuthClients(workspace.id);
  const regenerate = useRegenerateOAuthClientSecret(workspace.id);
  const remove = useDeleteOAuthClient(workspace.id);
  if (!roleMayCall(workspace.role, 'listOAuthClients')) return <div role="alert" className="alert">Only admins and owners manage OAuth clients.</div>;
  return (
    <>
      {created?.clientSecret ? <SecretOnce label="Client secret" value={created.clientSecret} /> : null}
      <CreateClientForm workspace={workspace} onCreated={setCreated} />
      <ErrorAlert error={list.error ?? regenerate.error ?? remove.error} />
      {list.isLoading ? <Loading what="Loading OAuth clients" /> : null}
      {list.data?.length === 0 ? <Empty><p>No OAuth clients.</p></Empty> : null}
      <ul className="plain-list">
        {list.data?.map((c) => (
          <li key={c.id} className="card">
            <h2>{c.name} <span className="hint">({c.type})</span></h2>
            <p>Client ID: <code>{c.clientId}</code> <CopyButton value={c.clientId} label="Copy client ID" /></p>
            <p className="hint">Redirect URIs: {c.redirectUris.join(', ')}</p>
            <div className="inline">
              {c.type === 'confidential' ? <button type="button" className="secondary" onClick={() => regenerate.mutate(c.id, { onSuccess: setCreated })}>Regenerate secret</button> : null}
              <button type="button" className="secondary" onClick={() => void confirm({ message: `Delete ${c.name}? Its tokens stop working.`, action: 'Delete' }).then((yes) => { if (yes) remove.mutate(c.id); })}>Delete</button>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

export default function OAuthClientsPage() {
  return <WithWorkspace>{(ws) => <Page title="OAuth clients"><SettingsNav workspace={ws} /><Clients workspace={ws} /></Page>}</WithWorkspace>;
}
