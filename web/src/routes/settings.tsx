import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { roleMayCall, UpdateWorkspaceBodySchema, type Workspace } from '@hop/shared';
import { useApi } from '../api.js';
import { apiFieldErrors, check, type FieldErrors } from '../form-errors.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { SettingsNav } from '../components/settings-nav.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';

function General({ workspace }: { workspace: Workspace }) {
  const api = useApi();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState('');
  const owner = roleMayCall(workspace.role, 'updateWorkspace');
  const rename = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const checked = check(UpdateWorkspaceBodySchema, { name: new FormData(e.currentTarget).get('name') });
    setErrors(checked.errors ?? {});
    setError(null);
    if (!checked.data) return;
    try {
      await api.call('updateWorkspace', { params: { workspaceId: workspace.id }, body: checked.data });
      await queries.invalidateQueries({ queryKey: ['workspaces'] });
      setSaid('Saved.');
    } catch (err) { setErrors(apiFieldErrors(err)); setError(err); }
  };
  const remove = async () => {
    if (window.prompt(`This deletes ${workspace.name}, its links and their analytics. Type the slug “${workspace.slug}” to confirm.`) !== workspace.slug) return;
    try {
      await api.call('deleteWorkspace', { params: { workspaceId: workspace.id } });
      await queries.invalidateQueries({ queryKey: ['workspaces'] });
      navigate('/');
    } catch (err) { setError(err); }
  };
  return (
    <>
      <form onSubmit={rename} noValidate className="card">
        <fieldset className="plain" disabled={!owner}>
          <Field label="Name" name="name" defaultValue={workspace.name} required error={errors.name} />
          <p className="hint">Slug: <code>{workspace.slug}</code> (cannot change). Plan: {workspace.plan}. Your role: {workspace.role}.</p>
          {said ? <p role="status" className="status-ok">{said}</p> : null}
          <button type="submit">Save name</button>
        </fieldset>
        {!owner ? <p className="hint">Only owners rename or delete the workspace.</p> : null}
      </form>
      <ErrorAlert error={error} />
      {owner ? (
        <section className="card" aria-labelledby="danger-h">
          <h2 id="danger-h">Delete workspace</h2>
          <button type="button" className="danger" onClick={() => void remove()}>Delete workspace</button>
        </section>
      ) : null}
    </>
  );
}

export default function SettingsPage() {
  return <WithWorkspace>{(ws) => <Page title="Settings"><SettingsNav workspace={ws} /><General workspace={ws} /></Page>}</WithWorkspace>;
}
