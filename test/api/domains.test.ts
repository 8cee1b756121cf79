// Custom domains over real HTTP and real DNS: names, verification through a loopback DNS server,
// links on verified domains only, the redirector choosing the domain by Host, removal rules,
// roles and scopes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Domain } from '@hop/shared';
import { addMember, apiKey, fails, succeeds, team, type Team, unique } from '../helpers/api.js';
import { startDomainServer, visitAs, type DomainServer } from '../helpers/domain-server.js';

let srv: DomainServer;
before(async () => {
  srv = await startDomainServer();
});
after(async () => {
  assert.equal(await srv.stop(), 0);
});

const newTeam = () => team('free', srv.url);
const domainName = () => `${unique('go')}.example.test`;

async function addDomain(t: Team, name = domainName()): Promise<Domain> {
  return (await succeeds(t.api, 'addDomain', { params: { workspaceId: t.workspaceId }, body: { name } })).body.data;
}

async function verifiedDomain(t: Team): Promise<Domain> {
  const d = await addDomain(t);
  srv.dns.setTxt(d.verification.name, [d.verification.value]);
  return (await succeeds(t.api, 'verifyDomain', { params: { workspaceId: t.workspaceId, domainId: d.id } })).body.data;
}

test('add: a lower-cased host name, with the TXT record to create', async () => {
  const t = await newTeam();
  const name = domainName();
  const d = await addDomain(t, `  ${name.toUpperCase()} `);
  assert.match(d.id, /^dom_/);
  assert.equal(d.name, name);
  assert.equal(d.verified, false);
  assert.equal(d.verifiedAt, null);
  assert.deepEqual(d.verification, { type: 'TXT', name: `_hop-challenge.${name}`, value: d.verification.value });
  assert.match(d.verification.value, /^hop-verify=[0-9A-Za-z]{32}$/);
  const { body } = await succeeds(t.api, 'listDomains', { params: { workspaceId: t.workspaceId } });
  assert.deepEqual(body.data, [d]);
});

test('add: refuses what is not a plain host name, and the service\'s own hosts', async () => {
  const t = await newTeam();
  const params = { workspaceId: t.workspaceId };
  const bad = [
    'https://go.example.com', 'go.example.com:8443', 'go.example.com/path', '127.0.0.1', '[::1]', '::1', 'localhost',
    'under_score.example.com', '-dash.example.com', 'a..example.com', 'example.123', '', `${'a'.repeat(64)}.example.com`,
    srv.shortHost, srv.apiHost,
  ];
  for (const name of bad) {
    const err = await fails(t.api, 'addDomain', { params, body: { name } }, 'VALIDATION_ERROR');
    assert.ok((err.details.issues as { path: string }[]).some((i) => i.path.includes('name')), `${name}: ${err.message}`);
  }
  await fails(t.api, 'addDomain', { params, body: { name: 'ok.example.test', verified: true } as never }, 'VALIDATION_ERROR');
});

test('add: an unverified claim blocks no one and reveals nothing; the first to verify owns the name', async () => {
  const [a, b, c] = [await newTeam(), await newTeam(), await newTeam()];
  const mine = (t: Team) => ({ workspaceId: t.workspaceId });
  const d = await addDomain(a);
  const again = await fails(a.api, 'addDomain', { params: mine(a), body: { name: d.name } }, 'CONFLICT');
  assert.match(again.message, /this workspace/);
  // Other workspaces add the same name as if no one had: a claim of their own, nothing said of a's.
  const db = await addDomain(b, d.name.toUpperCase());
  const dc = await addDomain(c, d.name);
  for (const x of [db, dc]) {
    assert.equal(x.name, d.name);
    assert.equal(x.verified, false);
    assert.notEqual(x.verification.value, d.verification.value);
  }
  // b proves control first: b owns the name, and the other claims are gone.
  srv.dns.setTxt(db.verification.name, [db.verification.value]);
  assert.equal((await succeeds(b.api, 'verifyDomain', { params: { ...mine(b), domainId: db.id } })).body.data.verified, true);
  for (const [t, claim] of [[a, d], [c, dc]] as const) {
    assert.deepEqual((await succeeds(t.api, 'listDomains', { params: mine(t) })).body.data, []);
    await fails(t.api, 'verifyDomain', { params: { ...mine(t), domainId: claim.id } }, 'NOT_FOUND');
  }
  // A later claim is still accepted silently; only whoever controls the DNS learns it is taken.
  const late = await addDomain(a, d.name);
  srv.dns.setTxt(late.verification.name, [late.verification.value]);
  const taken = await fails(a.api, 'verifyDomain', { params: { ...mine(a), domainId: late.id } }, 'CONFLICT');
  assert.match(taken.message, /verified by another workspace/);
  // Once the owner removes it, a verified claim takes it over.
  await succeeds(b.api, 'deleteDomain', { params: { ...mine(b), domainId: db.id } });
  assert.equal((await succeeds(a.api, 'verifyDomain', { params: { ...mine(a), domainId: late.id } })).body.data.verified, true);
});

test('verify: a missing record, then a wrong value, answer 400 with the reason; the right one verifies', async () => {
  const t = await newTeam();
  const d = await addDomain(t);
  const params = { workspaceId: t.workspaceId, domainId: d.id };

  const missing = await fails(t.api, 'verifyDomain', { params }, 'VALIDATION_ERROR');
  assert.equal(missing.details.reason, 'record_missing');
  assert.match(missing.message, /no TXT record at _hop-challenge\./);
  assert.ok(missing.message.includes(d.verification.value));

  srv.dns.setTxt(d.verification.name, ['hop-verify=somebody-else']);
  const differs = await fails(t.api, 'verifyDomain', { params }, 'VALIDATION_ERROR');
  assert.equal(differs.details.reason, 'value_mismatch');
  assert.deepEqual(differs.details.found, ['hop-verify=somebody-else']);
  const listed = await succeeds(t.api, 'listDomains', { params: { workspaceId: t.workspaceId } });
  assert.equal(listed.body.data[0].verified, false, 'a failed check leaves the domain unverified');

  // Other TXT records may sit beside ours.
  srv.dns.setTxt(d.verification.name, ['v=spf1 -all', d.verification.value]);
  const { body } = await succeeds(t.api, 'verifyDomain', { params });
  assert.equal(body.data.verified, true);
  assert.ok(body.data.verifiedAt);
  // Verified stays verified: a second call answers the same without depending on DNS.
  srv.dns.setTxt(d.verification.name, []);
  const again = await succeeds(t.api, 'verifyDomain', { params });
  assert.equal(again.body.data.verifiedAt, body.data.verifiedAt);
});

test('links: only on the default or a verified domain of the workspace; custom ones are https', async () => {
  const t = await newTeam();
  const other = await newTeam();
  const params = { workspaceId: t.workspaceId };
  const pending = await addDomain(t);
  const theirs = await verifiedDomain(other);
  for (const domain of [pending.name, theirs.name, 'never-added.example.test']) {
    const err = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', domain } }, 'VALIDATION_ERROR');
    assert.deepEqual((err.details.issues as { path: string }[]).map((i) => i.path), ['domain']);
  }

  const d = await verifiedDomain(t);
  const slug = unique('s');
  const { body } = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/custom', slug, domain: d.name.toUpperCase() } });
  assert.equal(body.data.domain, d.name);
  assert.equal(body.data.shortUrl, `https://${d.name}/${slug}`);
  // The same slug is free on the default domain: slugs are unique per domain.
  const plain = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/default', slug } });
  assert.equal(plain.body.data.shortUrl, `http://${srv.shortDomain}/${slug}`);

  const filtered = await succeeds(t.api, 'listLinks', { params, query: { domain: d.name } });
  assert.deepEqual(filtered.body.data.map((l) => l.id), [body.data.id]);

  // A link may move onto a verified domain, not onto a pending one.
  const moved = await succeeds(t.api, 'updateLink', { params: { ...params, linkId: plain.body.data.id }, body: { domain: d.name, slug: unique('m') } });
  assert.equal(moved.body.data.domain, d.name);
  await fails(t.api, 'updateLink', { params: { ...params, linkId: plain.body.data.id }, body: { domain: pending.name } }, 'VALIDATION_ERROR');
  // A destination on a verified domain would loop.
  await fails(t.api, 'createLink', { params, body: { url: `https://${theirs.name}/x` } }, 'VALIDATION_ERROR');
});

test('redirector: the Host picks the domain whose slug is served', async () => {
  const t = await newTeam();
  const params = { workspaceId: t.workspaceId };
  const d = await verifiedDomain(t);
  const both = unique('both');
  const onlyCustom = unique('only');
  await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/on-custom', slug: both, domain: d.name } });
  await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/on-default', slug: both } });
  await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/only-custom', slug: onlyCustom, domain: d.name } });

  const custom = await visitAs(srv.url, d.name, `/${both}`);
  assert.deepEqual(custom, { status: 302, location: 'https://example.com/on-custom' });
  assert.equal((await visitAs(srv.url, `${d.name.toUpperCase()}:443`, `/${both}`)).location, 'https://example.com/on-custom', 'case and port do not matter');
  for (const host of [srv.shortDomain, `127.0.0.1:${srv.port}`, `${srv.apiHost}:${srv.port}`]) {
    assert.deepEqual(await visitAs(srv.url, host, `/${both}`), { status: 302, location: 'https://example.com/on-default' }, host);
    assert.equal((await visitAs(srv.url, host, `/${onlyCustom}`)).status, 404, `${host} does not serve the custom domain's slugs`);
  }
  assert.equal((await visitAs(srv.url, d.name, `/${onlyCustom}`)).location, 'https://example.com/only-custom');
  // A host that is no verified domain falls back to the default domain.
  const pending = await addDomain(t);
  assert.equal((await visitAs(srv.url, pending.name, `/${both}`)).location, 'https://example.com/on-default');
});

test('remove: refused (409) while links use the domain; afterwards its host serves nothing of it', async () => {
  const t = await newTeam();
  const params = { workspaceId: t.workspaceId };
  const d = await verifiedDomain(t);
  const slug = unique('r');
  const { body } = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/r', slug, domain: d.name } });
  const inUse = await fails(t.api, 'deleteDomain', { params: { ...params, domainId: d.id } }, 'CONFLICT');
  assert.equal(inUse.details.linkCount, 1);
  assert.match(inUse.message, /1 link/);

  await succeeds(t.api, 'deleteLink', { params: { ...params, linkId: body.data.id } });
  const removed = await succeeds(t.api, 'deleteDomain', { params: { ...params, domainId: d.id } });
  assert.equal(removed.body.data.id, d.id);
  assert.deepEqual((await succeeds(t.api, 'listDomains', { params })).body.data, []);
  await fails(t.api, 'deleteDomain', { params: { ...params, domainId: d.id } }, 'NOT_FOUND');
  await fails(t.api, 'verifyDomain', { params: { ...params, domainId: d.id } }, 'NOT_FOUND');
  assert.equal((await visitAs(srv.url, d.name, `/${slug}`)).status, 404);
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', domain: d.name } }, 'VALIDATION_ERROR');
});

test('roles and scopes: viewers list, admins manage, keys need the scopes; other workspaces see 404', async () => {
  const t = await newTeam();
  const params = { workspaceId: t.workspaceId };
  const d = await addDomain(t);
  const viewer = await addMember(t, 'viewer');
  const member = await addMember(t, 'member');
  const admin = await addMember(t, 'admin');

  assert.equal((await succeeds(viewer.api, 'listDomains', { params })).body.data.length, 1);
  const forbidden = await fails(member.api, 'addDomain', { params, body: { name: domainName() } }, 'FORBIDDEN');
  assert.equal(forbidden.details.requiredRole, 'admin');
  await fails(member.api, 'verifyDomain', { params: { ...params, domainId: d.id } }, 'FORBIDDEN');
  await fails(viewer.api, 'deleteDomain', { params: { ...params, domainId: d.id } }, 'FORBIDDEN');
  await succeeds(admin.api, 'addDomain', { params, body: { name: domainName() } });

  const linksOnly = await apiKey(t, ['links:read']);
  const scope = await fails(linksOnly.api, 'listDomains', { params }, 'INSUFFICIENT_SCOPE');
  assert.equal(scope.details.requiredScope, 'domains:read');
  const reader = await apiKey(t, ['domains:read']);
  assert.equal((await succeeds(reader.api, 'listDomains', { params })).body.data.length, 2);
  await fails(reader.api, 'addDomain', { params, body: { name: domainName() } }, 'INSUFFICIENT_SCOPE');
  const writer = await apiKey(t, ['workspace:write']);
  await succeeds(writer.api, 'addDomain', { params, body: { name: domainName() } });

  const stranger = await newTeam();
  await fails(stranger.api, 'listDomains', { params }, 'NOT_FOUND');
  await fails(stranger.api, 'deleteDomain', { params: { ...params, domainId: d.id } }, 'NOT_FOUND');
  // Someone else's domain id in one's own workspace path is not found either.
  await fails(stranger.api, 'verifyDomain', { params: { workspaceId: stranger.workspaceId, domainId: d.id } }, 'NOT_FOUND');
});
