import { useState } from 'react';
import { mayGrantRole, roleMayCall } from '@hop/shared/access';
import { ROLES } from '@hop/shared/constants';
import { CreateInviteBodySchema } from '@hop/shared/members';
import type { CreatedInvite, Role, Workspace } from '@hop/shared';
import { useCreateInvite, useDeleteInvite, useDeleteMember, useInvites, useMembers, useUpdateMember } from '../queries/members.js';
import { useSession } from '../session.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { SettingsNav } from '../components/settings-nav.js';
import { Field, SelectField } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { CopyButton } from '../components/copy-button.js';
import { DataTable } from '../components/data-table.js';
import { useConfirm } from '../components/confirm.js';

function InviteForm({ workspace }: { workspace: Workspace }) {
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateInviteBodySchema, {
    read: (f) => ({ email: f.get('email'), role: f.get('role') }),
    mutation: useCreateInvite(workspace.id),
    onSuccess: setCreated,
  });
  // Only owners make owners (docs/api.md, Access).
  const roles = ROLES.filter((r) => mayGrantRole(workspace.role, r));
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
  const confirm = useConfirm();
  const me = useSession().session?.user.id;
  const members = useMembers(workspace.id);
  const isAdmin = roleMayCall(workspace.role, 'listInvites');
  const invites = useInvites(workspace.id, isAdmin);
  const updateMember = useUpdateMember(workspace.id);
  const deleteMember = useDeleteMember(workspace.id);
  const deleteInvite = useDeleteInvite(workspace.id);
  const setRole = (userId: string, role: Role) => updateMember.mutate({ userId, role });
  const remove = (userId: string, email: string) => {
    const leaving = userId === me;
    void confirm({ message: leaving ? `Leave ${workspace.name}?` : `Remove ${email} from ${workspace.name}?`, action: leaving ? 'Leave' : 'Remove' })
      .then((yes) => { if (yes) deleteMember.mutate(userId); });
  };
  return (
    <>
      <ErrorAlert error={members.error ?? updateMember.error ?? deleteMember.error ?? deleteInvite.error} />
      {members.isLoading ? <Loading what="Loading members" /> : null}
      {members.data ? (
        <DataTable label="Members" rows={members.data} rowKey={(m) => m.userId} columns={[
          { key: 'name', header: 'Name', phone: 'title', cell: (m) => <>{m.name}{m.userId === me ? ' (you)' : ''}</> },
          { key: 'email', header: 'Email', phone: 'wide', cell: (m) => m.email },
          {
            key: 'role', header: 'Role',
            cell: (m) => (roleMayCall(workspace.role, 'updateMember') ? (
              <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => setRole(m.userId, e.target.value as Role)}>
                {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
              </select>
            ) : m.role),
          },
          { key: 'actions', header: '', label: 'Actions', phone: 'unlabelled', cell: (m) => (isAdmin || m.userId === me ? <button type="button" className="link-button" onClick={() => remove(m.userId, m.email)}>{m.userId === me ? 'Leave' : 'Remove'}</button> : null) },
        ]} />
      ) : null}
      {isAdmin ? (
        <>
          <InviteForm workspace={workspace} />
          <h2>Pending invites</h2>
          {invites.data?.length === 0 ? <p className="hint">None.</p> : null}
          <ul>
            {invites.data?.map((i) => (
              <li key={i.id}>{i.email} as {i.role}, expires {new Date(i.expiresAt).toLocaleDateString()}{' '}
                <button type="button" className="link-button" onClick={() => deleteInvite.mutate(i.id)}>Revoke</button>
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
