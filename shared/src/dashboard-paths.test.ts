import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DASHBOARD_PATHS, dashboardPageAt, dashboardParamsAt, dashboardPath, type DashboardPage } from './dashboard-paths.js';

test('a page path fills and encodes its parameters, and refuses a missing one', () => {
  assert.equal(dashboardPath('billing', { ws: 'acme' }), '/acme/settings/billing');
  assert.equal(dashboardPath('invite', { token: 'a/b c' }), '/invites/a%2Fb%20c');
  assert.equal(dashboardPath('resetPassword'), '/reset-password');
  assert.throws(() => dashboardPath('link', { ws: 'acme' }), /linkId/);
});

test('a path names the page the router opens: fixed segments win over parameters', () => {
  assert.equal(dashboardPageAt('/'), 'workspaces');
  assert.equal(dashboardPageAt('/login'), 'login');
  assert.equal(dashboardPageAt('/acme'), 'workspace');
  assert.equal(dashboardPageAt('/acme/links/'), 'links');
  assert.equal(dashboardPageAt('/acme/links/new'), 'newLink');
  assert.equal(dashboardPageAt('/acme/links/lnk_1'), 'link');
  assert.equal(dashboardPageAt('/acme/settings/keys'), 'keys');
  assert.equal(dashboardPageAt('/account/apps'), 'accountApps');
  assert.equal(dashboardPageAt('/acme/links/lnk_1/more'), undefined);
  // Every page's own pattern names it.
  for (const page of Object.keys(DASHBOARD_PATHS) as DashboardPage[]) {
    assert.equal(dashboardPageAt(DASHBOARD_PATHS[page].replace(/:([A-Za-z]+)/g, 'x1')), page, page);
  }
});

test("a path's parameters are the inverse of dashboardPath, and a malformed escape is kept as it stands", () => {
  const params = { ws: 'acme', linkId: 'lnk 1/é' };
  assert.deepEqual(dashboardParamsAt('link', dashboardPath('link', params)), params);
  assert.deepEqual(dashboardParamsAt('link', '/acme/links/%E0%A4'), { ws: 'acme', linkId: '%E0%A4' });
  assert.deepEqual(dashboardParamsAt('links', '/acme/links/'), { ws: 'acme' });
  assert.deepEqual(dashboardParamsAt('login', '/login'), {});
});
