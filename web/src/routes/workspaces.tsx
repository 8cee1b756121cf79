import { Link, useNavigate } from 'react-router';
import { CreateWorkspaceBodySchema } from '@hop/shared';
import { useCreateWorkspace, useWorkspaces } from '../queries/workspaces.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { Page } from '../components/layout.js';
import { dashboardPath } from '@hop/shared';

function CreateWorkspaceForm() {
  const navigate = useNavigate();
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateWorkspaceBodySchema, {
    read: (f) => ({ name: f.get('name'), slug: f.get('slug') }),
    mutation: useCreateWorkspace(),
    onSuccess: (ws) => navigate(dashboardPath('links', { ws: ws.slug })),
  });
  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <h2>Create a workspace</h2>
      <Field label="Name" name="name" required error={errors.name} />
      <Field label="Slug" name="slug" required hint="3-48 characters: a-z, 0-9 and -. It cannot change later." error={errors.slug} />
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
