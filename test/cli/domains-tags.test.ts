// `hop domains ...` and `hop tags ...` against a real server with a loopback DNS server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Domain, Link, TagSummary } from '@hop/shared';
import { team, unique, type Team } from '../helpers/api.js';
import { startDomainServer, visitAs, type DomainServer } from '../helpers/domain-server.js';
import { hopSession } from './run-hop.js';

let srv: DomainServer;
let t: Team;
let session: ReturnType<typeof hopSession>;
// Every command goes to this file's server, not the shared one.
const env = () => ({ HOP_API_URL: srv.url });
const hop = {
  run: (args: string[]) => session.run(args, { env: env() }),
  json: <T>(args: string[]) => session.json<T>(args, { env: env() }),
};

before(async () => {
  srv = await startDomainServer();
  t = await team('free', srv.url);
  session = hopSession();
  const login = await session.run(['login', '--with-token'], { input: t.token, env: env() });
  assert.equal(login.code, 0, login.stderr);
});
after(async () => {
  assert.equal(await srv.stop(), 0);
});

test('domains add, list, verify (failing, then passing) and remove', async () => {
  const name = `${unique('cli')}.example.test`;
  const added = await hop.json<Domain>(['domains', 'add', name]);
  assert.equal(added.name, name);
  assert.equal(added.verified, false);

  const listed = await hop.json<Domain[]>(['domains', 'list']);
  assert.deepEqual(listed, [added]);
  const piped = await hop.run(['domains', 'list']);
  assert.equal(piped.code, 0, piped.stderr);
  assert.deepEqual(piped.stdout.trim().split('\t').slice(0, 5), [added.id, name, 'no', added.verification.name, added.verification.value]);

  const missing = await hop.run(['domains', 'verify', name]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no TXT record at _hop-challenge\..*\(VALIDATION_ERROR\)/);
  assert.equal(missing.stdout, '');

  srv.dns.setTxt(added.verification.name, [added.verification.value]);
  const verified = await hop.json<Domain>(['domains', 'verify', name]);
  assert.equal(verified.verified, true);

  const link = await hop.json<Link>(['links', 'create', 'https://example.com/cli-domain', '--domain', name, '--slug', 'hello']);
  assert.equal(link.shortUrl, `https://${name}/hello`);
  assert.equal((await visitAs(srv.url, name, '/hello')).location, 'https://example.com/cli-domain');

  const inUse = await hop.run(['domains', 'remove', name, '--yes']);
  assert.equal(inUse.code, 1);
  assert.match(inUse.stderr, /used by 1 link.*\(CONFLICT\)/);
  assert.equal((await hop.run(['links', 'delete', link.id, '--yes'])).code, 0);
  const noYes = await hop.run(['domains', 'remove', name]);
  assert.equal(noYes.code, 2, 'no deletion without --yes off a terminal');
  const removed = await hop.json<Domain>(['domains', 'delete', verified.id, '--yes']);
  assert.equal(removed.id, added.id);
  const unknown = await hop.run(['domains', 'verify', name]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no domain/);
});

test('domains add refuses a bad name with exit 1 and the reason', async () => {
  const res = await hop.run(['domains', 'add', 'https://nope.example.test']);
  assert.equal(res.code, 1);
  assert.match(res.stderr, /VALIDATION_ERROR/);
});

test('tags list, rename (merging) and delete', async () => {
  const a = unique('ta');
  const b = unique('tb');
  for (const tags of [[a], [a, b], [b]]) {
    await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/', tags } });
  }
  const listed = await hop.json<TagSummary[]>(['tags', 'list']);
  assert.deepEqual(listed.filter((x) => x.name === a || x.name === b).sort((x, y) => x.name.localeCompare(y.name)),
    [{ name: a, linkCount: 2 }, { name: b, linkCount: 2 }]);
  const piped = await hop.run(['tags', 'list']);
  assert.ok(piped.stdout.split('\n').includes(`${a}\t2`), piped.stdout);

  const renamed = await hop.json<TagSummary>(['tags', 'rename', a, b]);
  assert.deepEqual(renamed, { name: b, linkCount: 3 });
  const gone = await hop.run(['tags', 'rename', a, b]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /NOT_FOUND/);

  assert.equal((await hop.run(['tags', 'delete', b])).code, 2, 'no deletion without --yes off a terminal');
  const deleted = await hop.json<TagSummary>(['tags', 'delete', b, '--yes']);
  assert.deepEqual(deleted, { name: b, linkCount: 3 });
  assert.deepEqual((await hop.json<TagSummary[]>(['tags', 'list'])).filter((x) => x.name === b), []);
});
