import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { routes, type RouteDef } from '@hop/shared';
import { assertDeclaresAccess } from './access.js';

const base: RouteDef = {
  method: 'GET', path: '/v1/workspaces/:workspaceId/things', summary: 'Things', tag: 'things', auth: 'credential',
  workspace: 'path', scope: 'links:read', role: 'viewer', status: 200, response: z.object({}),
};

test('a route that forgets where its workspace comes from, or its role, stops the server at start-up', () => {
  assert.throws(() => assertDeclaresAccess('listThings', { ...base, workspace: undefined }), /listThings declares no workspace source/);
  assert.throws(() => assertDeclaresAccess('listThings', { ...base, role: undefined }), /declares no role/);
  assert.throws(() => assertDeclaresAccess('listThings', { ...base, path: '/v1/things' }), /without :workspaceId/);
  assert.throws(() => assertDeclaresAccess('getMine', { ...base, auth: 'session', workspace: undefined }), /declares no workspace source/);
  // Public and operator routes resolve no workspace; account routes say so (`none`).
  assert.doesNotThrow(() => assertDeclaresAccess('open', { ...base, auth: 'public', workspace: undefined, role: undefined }));
  assert.doesNotThrow(() => assertDeclaresAccess('me', { ...base, path: '/v1/me', workspace: 'none', role: undefined }));
});

test('every route of the table passes', () => {
  for (const [name, def] of Object.entries(routes)) assert.doesNotThrow(() => assertDeclaresAccess(name, def as RouteDef), name);
});
