import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateInviteBodySchema, ROLES, type CreatedInvite, type Role, type Workspace } from '@hop/shared';
import { useApi } from '../api.js';
import { useSession } from '../session.js';
import { roleMayCall } from '@hop/shared';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { SettingsNav } from '../components/settings-nav.js';
import { Field, SelectField } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { CopyButton } from '../components/copy-button.js';

function InviteForm({ workspace }: { workspace: Workspace }) {
  const api = useApi();
  const queries = useQueryClient();
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateInviteBodySchema, {
    read: (f) => ({ email: f.get('email'), role: f.get('role') }),
    send: async (body) => (await api.call('createInvite', { params: { workspaceId: workspace.id }, body })).data,
    onSuccess: async (inv) => { setCreated(inv); await queries.invalidateQueries({ queryKey: ['invites', workspace.id] }); },
  });
  // Only owners make owners (docs/api.md, Access).
  const roles = ROLES.filter((r) => r !== 'owner' || workspace.role === 'owner');
  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <h2>Invite someone</h2>
      <div className="grid-2">
        <Field label="Email" name="email" type="email" required error={errors.email} />
        <SelectField label="Role" name="role" defaultValue="member" options={roles} error={errors.role} />
      </div>
      <ErrorAlert error={alert} />
      <button type="submit" disabled={busy}>Send invite</button>
      {created ? (
        <div role="status" className="secret">
          <p>Invite for {created.email} created. If the server sends no e-mail, pass on this link:</p>
          <p className="secret-row"><code>{created.acceptUrl}</code> <CopyButton value={created.acceptUrl} label="Copy invite link" /></p>
        </div>
      ) : null}
    </form>
  );
}

function Members({ workspace }: { workspace: Workspace }) {
  const api = useApi();
  const queries = useQueryClient();
  const me = useSession().session?.user.id;
  const [error, setError] = useState<unknown>(null);
  const members = useQuery({ queryKey: ['members', workspace.id], queryFn: async () => (await api.call('listMembers', { params: { workspaceId: workspace.id } })).data });
  const isAdmin = roleMayCall(workspace.role, 'listInvites');
  const invites = useQuery({ queryKey: ['invites', workspace.id], enabled: isAdmin, queryFn: async () => (await api.call('listInvites', { params: { workspaceId: workspace.id } })).data });
  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try { await fn(); } catch (err) { setError(err); }
    await queries.invalidateQueries({ queryKey: ['members', workspace.id] });
    await queries.invalidateQueries({ queryKey: ['invites', workspace.id] });
    await queries.invalidateQueries({ queryKey: ['workspaces'] });
  };
  const setRole = (userId: string, role: Role) => act(() => api.call('updateMember', { params: { workspaceId: workspace.id, userId }, body: { role } }));
  const remove = (userId: string, email: string) => {
    if (window.confirm(userId === me ? `Leave ${workspace.name}?` : `Remove ${email} from ${workspace.name}?`)) void act(() => api.call('deleteMember', { params: { workspaceId: workspace.id, userId } }));
  };
  return (
    <>
      <ErrorAlert error={members.error ?? error} />
      {members.isLoading ? <Loading what="Loading members" /> : null}
      {members.data ? (
        <div className="table-wrap" role="region" aria-label="Members" tabIndex={0}>
          <table>
            <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {members.data.map((m) => (
                <tr key={m.userId}>
                  <td>{m.name}{m.userId === me ? ' (you)' : ''}</td><td>{m.email}</td>
                  <td>{workspace.role === 'owner' ? (
                    <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => void setRole(m.userId, e.target.value as Role)}>
                      {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  ) : m.role}</td>
                  <td>{isAdmin || m.userId === me ? <button type="button" className="link-button" onClick={() => remove(m.userId, m.email)}>{m.userId === me ? 'Leave' : 'Remove'}</button> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {isAdmin ? (
        <>
          <InviteForm workspace={workspace} />
          <h2>Pending invites</h2>
          {invites.data?.length === 0 ? <p className="hint">None.</p> : null}
          <ul>
            {invites.data?.map((i) => (
              <li key={i.id}>{i.email} as {i.role}, expires {new Date(i.expiresAt).toLocaleDateString()}{' '}
                <button type="button" className="link-button" onClick={() => void act(() => api.call('deleteInvite', { params: { workspaceId: workspace.id, inviteId: i.id } }))}>Revoke</button>
              </li>
            ))}
          </ul>
        </>
      ) : <p className="hint">Admins and owners invite people.</p>}
    </>
  );
}

export default function MembersPage() {
  return <WithWorkspace>{(ws) => <Page title="Members"><SettingsNav workspace={ws} /><Members workspace={ws} /></Page>}</WithWorkspace>;
}
