import { useState } from 'react';
import { CreateApiKeyBodySchema } from '@hop/shared/api-keys';
import type { CreatedApiKey, Workspace } from '@hop/shared';
import { useApiKeys, useCreateApiKey, useDeleteApiKey } from '../queries/api-keys.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { SettingsNav } from '../components/settings-nav.js';
import { Field } from '../components/field.js';
import { ScopeChecks } from '../components/scope-checks.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { SecretOnce } from '../components/secret-once.js';
import { DataTable } from '../components/data-table.js';
import { useConfirm } from '../components/confirm.js';

function CreateKeyForm({ workspace, onCreated }: { workspace: Workspace; onCreated: (k: CreatedApiKey) => void }) {
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateApiKeyBodySchema, {
    read: (f) => ({ name: f.get('name'), scopes: f.getAll('scopes') }),
    mutation: useCreateApiKey(workspace.id),
    onSuccess: onCreated,
  });
  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <h2>Create an API key</h2>
      <Field label="Name" name="name" required error={errors.name} hint="What uses it, e.g. “CI deploys”." />
      <ScopeChecks id="scopes" error={errors.scopes} />
      <p className="hint">A key never has more power than your role in the workspace.</p>
      <ErrorAlert error={alert} />
      <button type="submit" disabled={busy}>Create API key</button>
    </form>
  );
}

function Keys({ workspace }: { workspace: Workspace }) {
  const confirm = useConfirm();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const keys = useApiKeys(workspace.id);
  const deleteKey = useDeleteApiKey(workspace.id);
  const revoke = (keyId: string, name: string) => {
    void confirm({ message: `Revoke the key “${name}”? Whatever uses it stops working.`, action: 'Revoke key' }).then((yes) => { if (yes) deleteKey.mutate(keyId); });
  };
  return (
    <>
      {created ? <SecretOnce label="API key" value={created.key} /> : null}
      <CreateKeyForm workspace={workspace} onCreated={setCreated} />
      <h2>Keys</h2>
      <ErrorAlert error={keys.error ?? deleteKey.error} />
      {keys.isLoading ? <Loading what="Loading keys" /> : null}
      {keys.data?.length === 0 ? <Empty><p>No API keys yet.</p></Empty> : null}
      {keys.data?.length ? (
        <DataTable label="API keys" rows={keys.data} rowKey={(k) => k.id} columns={[
          { key: 'name', header: 'Name', phone: 'title', cell: (k) => k.name },
          { key: 'key', header: 'Key', cell: (k) => <code>{k.prefix}…</code> },
          { key: 'scopes', header: 'Scopes', phone: 'wide', cell: (k) => k.scopes.map((s) => <span key={s} className="tag">{s}</span>) },
          { key: 'used', header: 'Last used', cell: (k) => (k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : 'never') },
          { key: 'actions', header: '', label: 'Actions', phone: 'unlabelled', cell: (k) => <button type="button" className="link-button" onClick={() => revoke(k.id, k.name)}>Revoke</button> },
        ]} />
      ) : null}
    </>
  );
}

export default function KeysPage() {
  return <WithWorkspace>{(ws) => <Page title="API keys"><SettingsNav workspace={ws} /><Keys workspace={ws} /></Page>}</WithWorkspace>;
}
