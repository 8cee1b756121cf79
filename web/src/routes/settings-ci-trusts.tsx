import { CreateCiTrustBodySchema } from '@hop/shared/ci-trusts';
import { GITHUB_ACTIONS_ISSUER } from '@hop/shared/constants';
import type { CiTrust, Workspace } from '@hop/shared';
import { useCiTrusts, useCreateCiTrust, useDeleteCiTrust } from '../queries/ci-trusts.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { SettingsNav } from '../components/settings-nav.js';
import { Field } from '../components/field.js';
import { ScopeChecks } from '../components/scope-checks.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';

/** An optional text field as the contract takes it: left empty, not sent. */
const optional = (f: FormData, name: string) => String(f.get(name) ?? '').trim() || undefined;

function AddTrustForm({ workspace }: { workspace: Workspace }) {
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateCiTrustBodySchema, {
    read: (f) => ({
      repository: f.get('repository'), issuer: optional(f, 'issuer'), ref: optional(f, 'ref'),
      environment: optional(f, 'environment'), workflow: optional(f, 'workflow'), scopes: f.getAll('scopes'),
    }),
    mutation: useCreateCiTrust(workspace.id),
  });
  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <h2>Trust a repository's CI jobs</h2>
      <p className="hint">Its jobs exchange their OIDC ID token for a 15-minute token with these scopes: no API key to store.</p>
      <Field label="Repository" name="repository" required error={errors.repository} hint="owner/name on GitHub, the project path on GitLab." />
      <Field label="Issuer" name="issuer" error={errors.issuer} placeholder={GITHUB_ACTIONS_ISSUER} hint="Empty for GitHub Actions; https://gitlab.com for GitLab.com." />
      <Field label="Ref" name="ref" error={errors.ref} hint="Optional, e.g. refs/heads/main." />
      <Field label="Environment" name="environment" error={errors.environment} hint="Optional: only jobs of this deployment environment." />
      <Field label="Workflow" name="workflow" error={errors.workflow} hint="Optional, e.g. .github/workflows/links.yml." />
      <ScopeChecks id="trust-scopes" error={errors.scopes} />
      <ErrorAlert error={alert} />
      <button type="submit" disabled={busy}>Add trust</button>
    </form>
  );
}

const requires = (t: CiTrust) => [t.ref, t.environment && `environment ${t.environment}`, t.workflow].filter(Boolean).join(', ') || 'any job';

function Trusts({ workspace }: { workspace: Workspace }) {
  const trusts = useCiTrusts(workspace.id);
  const deleteTrust = useDeleteCiTrust(workspace.id);
  const remove = (t: CiTrust) => {
    if (window.confirm(`Remove the trust of ${t.repository}? Its jobs lose access at once.`)) deleteTrust.mutate(t.id);
  };
  return (
    <>
      <AddTrustForm workspace={workspace} />
      <h2>Trusts</h2>
      <ErrorAlert error={trusts.error ?? deleteTrust.error} />
      {trusts.isLoading ? <Loading what="Loading CI trusts" /> : null}
      {trusts.data?.length === 0 ? <Empty><p>No CI trusts yet.</p></Empty> : null}
      {trusts.data?.length ? (
        <div className="table-wrap" role="region" aria-label="CI trusts" tabIndex={0}>
          <table>
            <thead><tr><th scope="col">Repository</th><th scope="col">Issuer</th><th scope="col">Requires</th><th scope="col">Scopes</th><th scope="col">Last used</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {trusts.data.map((t) => (
                <tr key={t.id}>
                  <td>{t.repository}</td><td>{t.issuer === GITHUB_ACTIONS_ISSUER ? 'GitHub Actions' : t.issuer}</td><td>{requires(t)}</td>
                  <td>{t.scopes.map((s) => <span key={s} className="tag">{s}</span>)}</td>
                  <td>{t.lastUsedAt ? new Date(t.lastUsedAt).toLocaleString() : 'never'}</td>
                  <td><button type="button" className="link-button" onClick={() => remove(t)} aria-label={`Remove the trust of ${t.repository}`}>Remove</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

export default function CiTrustsPage() {
  return <WithWorkspace>{(ws) => <Page title="CI trusts"><SettingsNav workspace={ws} /><Trusts workspace={ws} /></Page>}</WithWorkspace>;
}
