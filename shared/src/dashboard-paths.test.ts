import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dashboardPath } from './dashboard-paths.js';

test('a page path fills and encodes its parameters, and refuses a missing one', () => {
  assert.equal(dashboardPath('billing', { ws: 'acme' }), '/acme/settings/billing');
  assert.equal(dashboardPath('invite', { token: 'a/b c' }), '/invites/a%2Fb%20c');
  assert.equal(dashboardPath('resetPassword'), '/reset-password');
  assert.throws(() => dashboardPath('link', { ws: 'acme' }), /linkId/);
});
