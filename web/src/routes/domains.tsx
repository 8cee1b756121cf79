import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AddDomainBodySchema, type Domain, type Workspace } from '@hop/shared';
import { useApi } from '../api.js';
import { roleMayCall } from '@hop/shared';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { CopyButton } from '../components/copy-button.js';

function DomainCard({ workspace, domain, canManage }: { workspace: Workspace; domain: Domain; canManage: boolean }) {
  const api = useApi();
  const queries = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState('');
  const params = { workspaceId: workspace.id, domainId: domain.id };
  const refresh = () => queries.invalidateQueries({ queryKey: ['domains', workspace.id] });
  const verify = async () => {
    setError(null);
    try {
      const { data } = await api.call('verifyDomain', { params });
      setSaid(data.verified ? 'Verified.' : 'Not verified yet: the TXT record was not found. DNS changes can take a while.');
      await refresh();
    } catch (err) { setError(err); }
  };
  const remove = async () => {
    if (!window.confirm(`Remove ${domain.name}? Its links stop working.`)) return;
    try { await api.call('deleteDomain', { params }); await refresh(); } catch (err) { setError(err); }
  };
  return (
    <li className="card">
      <h2>{domain.name} <span className={domain.verified ? 'status-ok' : 'hint'}>({domain.verified ? 'verified' : 'not verified'})</span></h2>
      {!domain.verified ? (
        <>
          <p>Add this TXT record at your DNS provider, then verify:</p>
          <dl className="facts">
            <dt>Type</dt><dd>TXT</dd>
            <dt>Name</dt><dd><code>{domain.verification.name}</code> <CopyButton value={domain.verification.name} label="Copy name" /></dd>
            <dt>Value</dt><dd><code>{domain.verification.value}</code> <CopyButton value={domain.verification.value} label="Copy value" /></dd>
          </dl>
        </>
      ) : <p className="hint">Point the domain's A/CNAME record at this Hop server to serve its links.</p>}
      {said ? <p role="status">{said}</p> : null}
      <ErrorAlert error={error} />
      {canManage ? (
        <div className="inline">
          {!domain.verified ? <button type="button" onClick={() => void verify()}>Verify</button> : null}
          <button type="button" className="secondary" onClick={() => void remove()}>Remove</button>
        </div>
      ) : null}
    </li>
  );
}

function Domains({ workspace }: { workspace: Workspace }) {
  const api = useApi();
  const queries = useQueryClient();
  const list = useQuery({ queryKey: ['domains', workspace.id], queryFn: async () => (await api.call('listDomains', { params: { workspaceId: workspace.id } })).data });
  const { onSubmit, errors, alert, busy } = useCheckedForm(AddDomainBodySchema, {
    read: (f) => ({ name: f.get('name') }),
    send: async (body) => (await api.call('addDomain', { params: { workspaceId: workspace.id }, body })).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: ['domains', workspace.id] }),
  });
  const canManage = roleMayCall(workspace.role, 'addDomain');
  return (
    <>
      {canManage ? (
        <form onSubmit={onSubmit} noValidate className="card">
          <Field label="Domain name" name="name" placeholder="go.example.com" required error={errors.name} />
          <ErrorAlert error={alert} />
          <button type="submit" disabled={busy}>Add domain</button>
        </form>
      ) : null}
      <ErrorAlert error={list.error} />
      {list.isLoading ? <Loading what="Loading domains" /> : null}
      {list.data?.length === 0 ? <Empty><p>No custom domains. Links use the server's short domain.</p></Empty> : null}
      <ul className="plain-list">{list.data?.map((d) => <DomainCard key={d.id} workspace={workspace} domain={d} canManage={canManage} />)}</ul>
    </>
  );
}

export default function DomainsPage() {
  return <WithWorkspace>{(ws) => <Page title="Domains"><Domains workspace={ws} /></Page>}</WithWorkspace>;
}
