import { useState } from 'react';
import { useNavigate } from 'react-router';
import { roleMayCall } from '@hop/shared/access';
import { UpdateWorkspaceBodySchema } from '@hop/shared/workspaces';
import type { Workspace } from '@hop/shared';
import { useDeleteWorkspace, useUpdateWorkspace } from '../queries/workspaces.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { SettingsNav } from '../components/settings-nav.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';

function General({ workspace }: { workspace: Workspace }) {
  const navigate = useNavigate();
  const [said, setSaid] = useState('');
  const owner = roleMayCall(workspace.role, 'updateWorkspace');
  const rename = useCheckedForm(UpdateWorkspaceBodySchema, {
    read: (f) => ({ name: f.get('name') }),
    mutation: useUpdateWorkspace(workspace.id),
    onSuccess: () => setSaid('Saved.'),
    keepValues: true,
  });
  const deleteWorkspace = useDeleteWorkspace(workspace.id);
  const remove = () => {
    if (window.prompt(`This deletes ${workspace.name}, its links and their analytics. Type the slug “${workspace.slug}” to confirm.`) !== workspace.slug) return;
    deleteWorkspace.mutate(undefined, { onSuccess: () => navigate('/') });
  };
  return (
    <>
      <form onSubmit={rename.onSubmit} noValidate className="card">
        <fieldset className="plain" disabled={!owner}>
          <Field label="Name" name="name" defaultValue={workspace.name} required error={rename.errors.name} />
          <p className="hint">Slug: <code>{workspace.slug}</code> (cannot change). Plan: {workspace.plan}. Your role: {workspace.role}.</p>
          {said ? <p role="status" className="status-ok">{said}</p> : null}
          <button type="submit" disabled={rename.busy}>Save name</button>
        </fieldset>
        {!owner ? <p className="hint">Only owners rename or delete the workspace.</p> : null}
      </form>
      <ErrorAlert error={rename.alert ?? deleteWorkspace.error} />
      {owner ? (
        <section className="card" aria-labelledby="danger-h">
          <h2 id="danger-h">Delete workspace</h2>
          <button type="button" className="danger" onClick={remove}>Delete workspace</button>
        </section>
      ) : null}
    </>
  );
}

export default function SettingsPage() {
  return <WithWorkspace>{(ws) => <Page title="Settings"><SettingsNav workspace={ws} /><General workspace={ws} /></Page>}</WithWorkspace>;
}
