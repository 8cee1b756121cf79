import { useState } from 'react';
import { roleMayCall } from '@hop/shared/access';
import { AddDomainBodySchema } from '@hop/shared/domains';
import type { Domain, Workspace } from '@hop/shared';
import { useAddDomain, useDeleteDomain, useDomains, useVerifyDomain } from '../queries/domains.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { CopyButton } from '../components/copy-button.js';
import { useConfirm } from '../components/confirm.js';

function DomainCard({ workspace, domain, canManage }: { workspace: Workspace; domain: Domain; canManage: boolean }) {
  const confirm = useConfirm();
  const [said, setSaid] = useState('');
  const verifyDomain = useVerifyDomain(workspace.id);
  const deleteDomain = useDeleteDomain(workspace.id);
  const verify = () => verifyDomain.mutate(domain.id, {
    onSuccess: (d) => setSaid(d.verified ? 'Verified.' : 'Not verified yet: the TXT record was not found. DNS changes can take a while.'),
  });
  const remove = () => {
    void confirm({ message: `Remove ${domain.name}? Its links stop working.`, action: 'Remove' }).then((yes) => { if (yes) deleteDomain.mutate(domain.id); });
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
      <ErrorAlert error={verifyDomain.error ?? deleteDomain.error} />
      {canManage ? (
        <div className="inline">
          {!domain.verified ? <button type="button" onClick={verify}>Verify</button> : null}
          <button type="button" className="secondary" onClick={remove}>Remove</button>
        </div>
      ) : null}
    </li>
  );
}

function Domains({ workspace }: { workspace: Workspace }) {
  const list = useDomains(workspace.id);
  const { onSubmit, errors, alert, busy } = useCheckedForm(AddDomainBodySchema, {
    read: (f) => ({ name: f.get('name') }),
    mutation: useAddDomain(workspace.id),
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
