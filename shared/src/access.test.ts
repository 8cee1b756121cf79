import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayChange, mayGrantRole, maySeeBilling, roleAtLeast, roleMayCall } from './access.js';

test('roles are ordered viewer < member < admin < owner; no role is below all', () => {
  assert.ok(roleAtLeast('owner', 'admin') && roleAtLeast('member', 'member') && !roleAtLeast('viewer', 'member'));
  assert.equal(roleAtLeast(undefined, 'viewer'), false);
});

test('a route allows the weakest role the route table declares, and every stronger one', () => {
  assert.ok(roleMayCall('member', 'createLink') && !roleMayCall('viewer', 'createLink'));
  assert.ok(roleMayCall('admin', 'listWebhooks') && !roleMayCall('member', 'listWebhooks'));
});

test('members change what they made; admins and owners everything; viewers nothing', () => {
  const made = { createdBy: 'usr_a' };
  assert.ok(mayChange({ role: 'member', userId: 'usr_a' }, made));
  assert.ok(!mayChange({ role: 'member', userId: 'usr_b' }, made));
  assert.ok(!mayChange({ role: 'member', userId: 'usr_b' }, { createdBy: null }));
  assert.ok(mayChange({ role: 'admin', userId: 'usr_b' }, made));
  assert.ok(!mayChange({ role: 'viewer', userId: 'usr_a' }, made));
});

test('only owners grant the owner role; billing is shown to owners only', () => {
  assert.ok(mayGrantRole('owner', 'owner') && mayGrantRole('admin', 'admin') && mayGrantRole('admin', 'member'));
  assert.ok(!mayGrantRole('admin', 'owner') && !mayGrantRole(undefined, 'owner'));
  assert.ok(maySeeBilling('owner') && !maySeeBilling('admin') && !maySeeBilling(undefined));
});
