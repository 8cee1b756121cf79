// Scopes and roles on every endpoint (docs/api.md, Access), walked from the OpenAPI document: every route
// of the table answers 401 without a credential, 403 INSUFFICIENT_SCOPE to an API key and to an
// OAuth token lacking its scope, and 403 FORBIDDEN (with requiredRole) to a member whose role is
// below the declared one, with a session and with a key. Routes are found in the document and
// their rules read from shared/src/routes.ts, so a new route is covered the day it is added.
// Every route also declares where its workspace comes from (docs/api.md, Access), checked against its path;
// each one acting in a workspace answers 404 to an outsider and to a key bound elsewhere, with the
// X-RateLimit-* headers; and no route file checks membership by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROLES, SCOPES, routes, type RouteDef, type RouteName, type Role, type Scope, type WorkspaceSource } from '@hop/shared';
import { fillPath, type HopClient, type RawResponse } from '@hop/shared/client';
import { addMember, anonymous, apiKey, client, team, unique, type Team } from '../helpers/api.js';
import { oauthTokens } from '../helpers/oauth.js';

type Doc = { paths: Record<string, Record<string, { operationId?: string }>> };

/** Well-formed ids: access is decided before anything is looked up, except where the workspace is implied. */
function paramsFor(t: Team, linkId: string, qrId: string, userId: string): Record<string, string> {
  return {
    workspaceId: t.workspaceId, linkId, qrId, userId,
    keyId: 'key_0000000000000000000000', clientId: 'oac_0000000000000000000000', domainId: 'dom_0000000000000000000000',
    webhookId: 'wh_0000000000000000000000', deliveryId: 'dlv_0000000000000000000000', inviteId: 'inv_0000000000000000000000',
    name: 'some-tag', token: 'hopinv_0000000000000000000000',
    sessionId: 'ses_0000000000000000000000', grantId: 'oag_0000000000000000000000', trustId: 'cit_0000000000000000000000',
  };
}

/**
 * Valid bodies for routes whose workspace is implied (by the link, or by the credential on
 * /api/v1): their role is checked once the link or credential is known, after the body is read.
 */
const SAMPLE_BODIES: Partial<Record<RouteName, unknown>> = {
  updateLinkById: { title: 'walked' },
  integrationSubscribe: { targetUrl: 'https://hooks.example.test/walk', events: ['link.created'] },
  integrationCreateLink: { url: 'https://example.com/walk' },
};

async function callRoute(api: HopClient, def: RouteDef, params: Record<string, string>, name?: RouteName): Promise<RawResponse> {
  const body = def.method === 'GET' || def.method === 'DELETE' ? undefined : (name && SAMPLE_BODIES[name]) ?? {};
  return api.raw(def.method, fillPath(def.path, params), { body });
}

const below = (role: Role): Role => ROLES[ROLES.indexOf(role) - 1];
const errorOf = (res: RawResponse) => (res.body as { error?: { code: string; details: Record<string, unknown> } }).error;

test('every route of the OpenAPI document: no credential → 401, missing scope → 403 INSUFFICIENT_SCOPE, weaker role → 403 FORBIDDEN', { timeout: 120_000 }, async () => {
  const doc = (await anonymous.raw('GET', '/v1/openapi.json')).body as Doc;
  const names = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId)).filter((n): n is RouteName => Boolean(n && n in routes));
  assert.ok(names.length >= Object.keys(routes).length, 'the document lists every route of the table');

  const owner = await team('pro');
  const { data: link } = await owner.api.call('createLink', { params: { workspaceId: owner.workspaceId }, body: { url: 'https://example.com/walk' } });
  const { data: qr } = await owner.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
  const members = Object.fromEntries(await Promise.all((['viewer', 'member', 'admin'] as const).map(async (r) => [r, await addMember(owner, r)] as const))) as Record<'viewer' | 'member' | 'admin', Awaited<ReturnType<typeof addMember>>>;
  const params = paramsFor(owner, link.id, qr.id, members.viewer.userId);
  // One key per scope-less combination: a key holding every scope but the one a route needs.
  const keyLacking = new Map<Scope, HopClient>();
  const tokenLacking = new Map<Scope, HopClient>();
  for (const scope of SCOPES) {
    const others = SCOPES.filter((s) => s !== scope);
    keyLacking.set(scope, (await apiKey(owner, [...others])).api);
  }
  // OAuth tokens of the CLI: one lacking each scope (the CLI may hold keys:manage).
  await Promise.all(SCOPES.map(async (scope) => {
    const tokens = await oauthTokens(owner, owner.workspaceId, { scopes: SCOPES.filter((s) => s !== scope) });
    tokenLacking.set(scope, client({ token: tokens.access_token }));
  }));

  const problems: string[] = [];
  const expect = (name: string, what: string, res: RawResponse, status: number, code: string, check?: (d: Record<string, unknown>) => boolean) => {
    const err = errorOf(res);
    if (res.status !== status || err?.code !== code || (check && !check(err.details))) {
      problems.push(`${name} ${what}: expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 160)}`);
    }
  };

  for (const name of names) {
    const def = routes[name] as RouteDef;
    if (def.auth === 'public') continue;
    expect(name, 'without a credential', await callRoute(anonymous, def, params), 401, 'UNAUTHORIZED');
    if (def.auth === 'admin') continue;
    if (def.scope) {
      const scope = def.scope;
      expect(name, `with a key lacking ${scope}`, await callRoute(keyLacking.get(scope)!, def, params), 403, 'INSUFFICIENT_SCOPE',
        (d) => d.requiredScope === scope && Array.isArray(d.grantedScopes) && !d.grantedScopes.includes(scope));
      expect(name, `with an OAuth token lacking ${scope}`, await callRoute(tokenLacking.get(scope)!, def, params), 403, 'INSUFFICIENT_SCOPE');
    }
    if (def.auth === 'session') {
      expect(name, 'with an API key', await callRoute(keyLacking.get('links:read')!, def, params), 403, 'FORBIDDEN');
      continue;
    }
    if (def.role && def.role !== 'viewer') {
      const weaker = below(def.role) as 'viewer' | 'member' | 'admin';
      const who = members[weaker];
      // /api/v1 takes only credentials bound to a workspace (keys, OAuth tokens), never a session.
      if (!def.path.startsWith('/api/v1')) {
        expect(name, `as ${weaker} (session)`, await callRoute(who.api, def, params, name), 403, 'FORBIDDEN', (d) => d.requiredRole === def.role);
      }
      {
        // The same user's key, holding every scope: the role still decides.
        const key = await client({ token: who.token }).call('createApiKey', { params: { workspaceId: owner.workspaceId }, body: { name: 'walk', scopes: [...SCOPES] } });
        expect(name, `as ${weaker} (API key with every scope)`, await callRoute(client({ apiKey: key.data.key }), def, params, name), 403, 'FORBIDDEN', (d) => d.requiredRole === def.role);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('every credential route declares its rules: a scope (but getMe/integrationMe and session-only ones) and, on workspace paths, a role', () => {
  for (const [name, def] of Object.entries(routes) as [RouteName, RouteDef][]) {
    if (def.auth !== 'credential') continue;
    if (!['getMe', 'integrationMe'].includes(name)) assert.ok(def.scope, `${name} declares a scope`);
    if (def.path.includes(':workspaceId') || def.path.includes(':linkId') || def.path.includes(':qrId') || def.path.startsWith('/api/v1')) {
      assert.ok(def.role, `${name} declares a role`);
    }
  }
});

/** The source a route's path implies: what its declaration must say. */
function impliedSource(def: RouteDef): WorkspaceSource {
  if (def.path.includes(':workspaceId')) return 'path';
  if (def.path.startsWith('/api/v1/')) return 'credential';
  if (def.path.includes(':linkId')) return 'link';
  if (def.path.includes(':qrId')) return 'qr';
  return 'none';
}

test('every credential route declares where its workspace comes from, matching its path, with a role wherever it acts in one', () => {
  const problems: string[] = [];
  for (const [name, def] of Object.entries(routes) as [RouteName, RouteDef][]) {
    if (def.auth === 'public' || def.auth === 'admin') {
      if (def.workspace) problems.push(`${name}: ${def.auth} routes resolve no workspace`);
      continue;
    }
    if (!def.workspace) problems.push(`${name}: declares no workspace source`);
    else if (def.workspace !== impliedSource(def)) problems.push(`${name}: declares ${def.workspace}, its path implies ${impliedSource(def)}`);
    if (def.workspace && def.workspace !== 'none' && !def.role) problems.push(`${name}: acts in a workspace but declares no role`);
  }
  assert.deepEqual(problems, []);
});

test('no route file checks membership or roles by hand: the access hook is the only place', () => {
  const dir = fileURLToPath(new URL('../../server/src/api/routes/', import.meta.url));
  const byHand = /requireMembership|workspaces\.membership\(|roleAtLeast\(|\bauthorize\(|authenticate\(/;
  const offenders = readdirSync(dir).filter((f) => f.endsWith('.ts') && byHand.test(readFileSync(join(dir, f), 'utf8')));
  assert.deepEqual(offenders, []);
});

test('every route acting in a workspace enforces it: an outsider gets 404 with the X-RateLimit-* headers, a key bound elsewhere too, a session on /api/v1 403', { timeout: 120_000 }, async () => {
  const owner = await team('pro');
  const { data: link } = await owner.api.call('createLink', { params: { workspaceId: owner.workspaceId }, body: { url: 'https://example.com/outsider' } });
  const { data: qr } = await owner.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
  const params = paramsFor(owner, link.id, qr.id, owner.userId);
  // A stranger with every scope and the owner role of a workspace of their own.
  const stranger = await team('pro');
  const strangerKey = (await apiKey(stranger, [...SCOPES])).api;
  // The owner's own key, bound to another workspace of theirs: it sees nothing of the first.
  const { data: other } = await owner.api.call('createWorkspace', { body: { name: 'Other', slug: unique('ws-') } });
  const elsewhere = (await apiKey({ ...owner, workspaceId: other.id }, [...SCOPES])).api;

  const problems: string[] = [];
  const expectRefused = (name: string, who: string, res: RawResponse, status: number, code: string) => {
    if (res.status !== status || errorOf(res)?.code !== code) problems.push(`${name} (${who}): expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 160)}`);
    if (!res.headers['x-ratelimit-limit'] || !res.headers['x-ratelimit-remaining'] || !res.headers['x-ratelimit-reset']) {
      problems.push(`${name} (${who}): the refusal carries no X-RateLimit-* headers`);
    }
  };
  let walked = 0;
  for (const [name, def] of Object.entries(routes) as [RouteName, RouteDef][]) {
    if (def.auth === 'public' || def.auth === 'admin' || !def.workspace || def.workspace === 'none') continue;
    walked++;
    if (def.workspace === 'credential') {
      expectRefused(name, 'session', await callRoute(owner.api, def, params, name), 403, 'FORBIDDEN');
      continue;
    }
    expectRefused(name, 'stranger session', await callRoute(stranger.api, def, params, name), 404, 'NOT_FOUND');
    expectRefused(name, 'stranger key', await callRoute(strangerKey, def, params, name), 404, 'NOT_FOUND');
    expectRefused(name, "owner's key of another workspace", await callRoute(elsewhere, def, params, name), 404, 'NOT_FOUND');
  }
  // The event stream is registered beside the table, behind the same hook.
  const stream = `/v1/workspaces/${owner.workspaceId}/events/stream`;
  expectRefused('streamEvents', 'stranger session', await stranger.api.raw('GET', stream), 404, 'NOT_FOUND');
  expectRefused('streamEvents', "owner's key of another workspace", await elsewhere.raw('GET', stream), 404, 'NOT_FOUND');
  assert.ok(walked >= 50, `walked ${walked} routes`);
  assert.deepEqual(problems, []);
  // And the owner still reaches them all: nothing above was refused for the wrong reason.
  assert.equal((await owner.api.raw('GET', `/v1/qr/${qr.id}`)).status, 200);
});
