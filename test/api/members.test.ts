import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HopApiError } from '@hop/shared/client';
import { addMember, anonymous, signup, team } from '../helpers/api.js';

const rejects = (p: Promise<unknown>, code: string, status: number) =>
  assert.rejects(p, (e: HopApiError) => {
    assert.equal(e.code, code);
    assert.equal(e.statusCode, status);
    return true;
  });

test('an invite is accepted by the user with that e-mail, who joins with the role', async () => {
  const t = await team();
  const invitee = await signup();
  const { data: invite } = await t.api.call('createInvite', {
    params: { workspaceId: t.workspaceId },
    body: { email: invitee.email.toUpperCase(), role: 'member' },
  });
  assert.match(invite.token, /^hopinv_/);
  assert.ok(invite.acceptUrl.endsWith(`/app/invites/${invite.token}`), 'the dashboard page that signs in and accepts');
  assert.ok(new Date(invite.expiresAt).getTime() - Date.now() > 6.9 * 24 * 3600e3);

  const listed = await t.api.call('listInvites', { params: { workspaceId: t.workspaceId } });
  assert.equal(listed.data.length, 1);
  assert.equal('token' in listed.data[0], false, 'the token is shown only at creation');

  // Its page names the workspace and the inviter before anyone signs in.
  const { data: preview } = await anonymous.call('getInvite', { params: { token: invite.token } });
  const { data: me } = await t.api.call('getMe', {});
  const { data: workspaces } = await t.api.call('listWorkspaces', {});
  assert.deepEqual(preview, {
    workspaceName: workspaces.find((w) => w.id === t.workspaceId)!.name, inviterName: me.name,
    email: invitee.email.toUpperCase(), role: 'member', expiresAt: invite.expiresAt,
  });

  const stranger = await signup();
  await rejects(stranger.api.call('acceptInvite', { params: { token: invite.token } }), 'FORBIDDEN', 403);

  const { data: ws } = await invitee.api.call('acceptInvite', { params: { token: invite.token } });
  assert.equal(ws.id, t.workspaceId);
  assert.equal(ws.role, 'member');
  await rejects(invitee.api.call('acceptInvite', { params: { token: invite.token } }), 'NOT_FOUND', 404);
  await rejects(anonymous.call('getInvite', { params: { token: invite.token } }), 'NOT_FOUND', 404);

  const members = await t.api.call('listMembers', { params: { workspaceId: t.workspaceId } });
  assert.deepEqual(members.data.map((m) => m.role).sort(), ['member', 'owner']);
});

test('roles: only admins invite, only owners make owners or change roles', async () => {
  const t = await team();
  const member = await addMember(t, 'member');
  const admin = await addMember(t, 'admin');
  const params = { workspaceId: t.workspaceId };
  await rejects(member.api.call('createInvite', { params, body: { email: 'x@example.test', role: 'viewer' } }), 'FORBIDDEN', 403);
  await rejects(admin.api.call('createInvite', { params, body: { email: 'x@example.test', role: 'owner' } }), 'FORBIDDEN', 403);
  await admin.api.call('createInvite', { params, body: { email: 'x@example.test', role: 'admin' } });
  await rejects(admin.api.call('updateMember', { params: { ...params, userId: member.userId }, body: { role: 'admin' } }), 'FORBIDDEN', 403);
  const { data } = await t.api.call('updateMember', { params: { ...params, userId: member.userId }, body: { role: 'viewer' } });
  assert.equal(data.role, 'viewer');
});

test('the last owner can be neither demoted nor removed; others can leave', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  await rejects(t.api.call('updateMember', { params: { ...params, userId: t.userId }, body: { role: 'admin' } }), 'CONFLICT', 409);
  await rejects(t.api.call('deleteMember', { params: { ...params, userId: t.userId } }), 'CONFLICT', 409);
  const viewer = await addMember(t, 'viewer');
  const { data: left } = await viewer.api.call('deleteMember', { params: { ...params, userId: viewer.userId } });
  assert.equal(left.userId, viewer.userId);
  await rejects(viewer.api.call('getWorkspace', { params }), 'NOT_FOUND', 404);
  const second = await addMember(t, 'owner');
  await t.api.call('updateMember', { params: { ...params, userId: t.userId }, body: { role: 'admin' } });
  const { data: ws } = await second.api.call('getWorkspace', { params });
  assert.equal(ws.role, 'owner');
});
