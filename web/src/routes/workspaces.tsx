import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import { CreateWorkspaceBodySchema } from '@hop/shared/workspaces';
import { useCreateWorkspace, useWorkspaces } from '../queries/workspaces.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { SlugSuggestion } from '../components/slug-suggestion.js';
import { Empty, Loading } from '../components/states.js';
import { Page } from '../components/layout.js';

/** A workspace slug from its name: `Acme Café, Inc.` → `acme-cafe-inc` (3-48 of a-z, 0-9 and -). */
export const slugFromName = (name: string) =>
  name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48).replace(/-+$/, '');

function CreateWorkspaceForm() {
  const navigate = useNavigate();
  const create = useCreateWorkspace();
  const [name, setName] = useState('');
  // The slug follows the name until it is typed in itself.
  const [slug, setSlug] = useState<string | null>(null);
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateWorkspaceBodySchema, {
    read: (f) => ({ name: f.get('name'), slug: f.get('slug') }),
    mutation: create,
    onSuccess: (ws) => navigate(dashboardPath('links', { ws: ws.slug })),
  });
  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <h2>Create a workspace</h2>
      <Field label="Name" name="name" required error={errors.name} value={name} onChange={(e) => setName(e.target.value)} />
      <Field label="Slug" name="slug" required hint="3-48 characters: a-z, 0-9 and -. Filled in from the name; it cannot change later." error={errors.slug}
        value={slug ?? slugFromName(name)} onChange={(e) => setSlug(e.target.value)} />
      <SlugSuggestion error={create.error} onUse={setSlug} />
      <ErrorAlert error={alert} />
      <button type="submit" disabled={busy}>Create workspace</button>
    </form>
  );
}

export default function WorkspacesPage() {
  const { data, isLoading, error } = useWorkspaces();
  return (
    <Page title="Workspaces">
      {isLoading ? <Loading /> : null}
      <ErrorAlert error={error} />
      {data && data.length === 0 ? <Empty><p>You are not in any workspace yet. Create one below, or accept an invite.</p></Empty> : null}
      {data && data.length > 0 ? (
        <ul className="cards">
          {data.map((w) => (
            <li key={w.id} className="card">
              <Link to={dashboardPath('links', { ws: w.slug })}><strong>{w.name}</strong></Link>
              <div className="hint">{w.slug} · {w.role} · {w.plan}</div>
            </li>
          ))}
        </ul>
      ) : null}
      <CreateWorkspaceForm />
    </Page>
  );
}
