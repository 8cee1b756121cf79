// The scenario every importer of `hop links import --from` passes, against a fixture of its
// service on loopback (test/helpers/shortener-fixture.ts): a plan first, a run through a 429 and a
// 5xx that resumes after an interrupted one, a second run that creates nothing, conflicts kept
// unless overwritten, and a token that expires mid-way stopping before anything is written.
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link } from '@hop/shared';
import type { ImportSourceName } from '@hop/shared/import';
import { team, unique, type Team } from '../helpers/api.js';
import { fixtureLinks, startShortenerFixture, type FixtureLink } from '../helpers/shortener-fixture.js';
import { hopSession } from './run-hop.js';

export interface ImportReport {
  source: string;
  dryRun: boolean;
  counts: Record<'create' | 'overwrite' | 'skip' | 'conflict' | 'invalid', number>;
  created?: number;
  failed?: number;
  links: { action: string; source: string; domain: string | null; slug: string; success?: boolean; id?: string; reason?: string; domainChanged: boolean; passwordProtected: boolean; notCarried: string[] }[];
}

export async function linksOf(t: Team): Promise<Link[]> {
  return (await t.api.paginate('listLinks', { params: { workspaceId: t.workspaceId }, query: { limit: 100 } })).data;
}

export function importSetup() {
  const ctx = {} as { t: Team; hop: ReturnType<typeof hopSession> };
  before(async () => {
    ctx.t = await team('pro');
    ctx.hop = hopSession();
    await ctx.hop.login(ctx.t.token);
  });
  const run = (args: string[], env: Record<string, string> = {}) =>
    ctx.hop.run(['links', 'import', ...args], { env: { HOP_WORKSPACE: ctx.t.workspaceId, ...env } });
  return { ctx, run };
}

/** `service`'s scenario; `password` when the service reports password-protected links. */
export function importScenario(service: ImportSourceName, opts: { password: boolean }) {
  const { ctx, run } = importSetup();
  const token = `tok-${unique()}`;
  const closers: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closers) await close();
  });
  const fixture = async (links: FixtureLink[], extra: { rateLimitAt?: number; serverErrorAt?: number; expireAt?: number } = {}) => {
    const f = await startShortenerFixture(service, { token, links, ...extra });
    closers.push(f.close);
    return f;
  };
  const from = (url: string, ...args: string[]) => ['--from', service, '--url', url, ...args];

  test(`${service}: plan, then an import through a 429 and a 5xx that resumes an interrupted one; again, nothing`, async () => {
    const { t } = ctx;
    const prefix = unique(`${service}-`);
    const links = fixtureLinks(230, prefix);
    if (opts.password) links[2].password = true;
    links[104].expiresAt = '2031-05-01T00:00:00.000Z';
    const f = await fixture(links, { rateLimitAt: 2, serverErrorAt: 3 });
    // An earlier run stopped after its first batch: those links are there already.
    const first = links.slice(0, 100).map((l) => ({ url: l.url, slug: l.slug }));
    const bulk = await t.api.call('bulkCreateLinks', { params: { workspaceId: t.workspaceId }, body: first });
    assert.ok(bulk.data.every((r) => r.success));

    const plan = await run(from(f.url, '--dry-run'), { HOP_IMPORT_TOKEN: token });
    assert.equal(plan.code, 0, plan.stderr);
    const lines = plan.stdout.split('\n');
    assert.equal(lines[0], 'Plan: 130 to create, 100 to skip (already there), 0 conflict(s).');
    assert.ok(lines.some((l) => l.includes(`= skip sho.rt/${prefix}1 → `)), plan.stdout.slice(0, 500));
    assert.ok(lines.some((l) => new RegExp(`\\+ create sho\\.rt/${prefix}101 → .+/${prefix}101$`).test(l)));
    assert.ok(lines.includes('      domain changed: sho.rt is not a domain of this workspace'));
    assert.equal((await linksOf(t)).length, 100, '--dry-run creates nothing');

    const res = await run(from(f.url, '--json'), { HOP_IMPORT_TOKEN: token });
    assert.equal(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout) as ImportReport;
    assert.deepEqual([report.source, report.dryRun, report.counts.create, report.counts.skip, report.created, report.failed], [service, false, 130, 100, 130, 0]);
    const made = new Map((await linksOf(t)).map((l) => [l.slug, l]));
    assert.equal(made.size, 230);
    // Bitly's and YOURLS' lists carry no expiry.
    if (service !== 'bitly' && service !== 'yourls') assert.equal(made.get(`${prefix}105`)!.expiresAt, '2031-05-01T00:00:00.000Z');
    const l102 = made.get(`${prefix}102`)!;
    assert.equal(l102.importedClicks, 1020);
    assert.equal(l102.originalCreatedAt, links[101].createdAt);
    assert.equal(l102.url, links[101].url);
    if (service !== 'kutt' && service !== 'yourls') assert.deepEqual([...l102.tags].sort(), ['launch', 'odd']);
    if (service !== 'kutt') assert.equal(l102.title, 'Link 102');
    if (opts.password) {
      const entry = report.links.find((l) => l.slug === `${prefix}3`)!;
      assert.equal(entry.passwordProtected, true);
      assert.equal(entry.action, 'skip', 'the interrupted run had made it (without its tag)');
    }
    // The rate limit (met by the plan, which reads the source too) was waited out and the 5xx retried.
    const during = f.requests;
    const limited = during.findIndex((r) => r.status === 429);
    assert.ok(limited >= 0 && during[limited + 1].at - during[limited].at >= 950, 'waited for Retry-After');
    assert.ok(during.some((r) => r.status === 503));

    const again = await run(from(f.url), { HOP_IMPORT_TOKEN: token });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^Imported 0 link\(s\); skipped 230 already there; 0 conflict\(s\)\./);
    assert.equal((await linksOf(t)).length, 230);
  });

  test(`${service}: a conflict is kept unless --on-conflict overwrite; a password is tagged; an expired token writes nothing`, async () => {
    const { t } = ctx;
    const prefix = unique(`${service}c-`);
    const links = fixtureLinks(5, prefix);
    if (opts.password) links[1].password = true;
    const f = await fixture(links);
    const mine = (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/mine', slug: `${prefix}1` } })).data;

    const res = await run(from(f.url), { HOP_IMPORT_TOKEN: token });
    assert.equal(res.code, 3, res.stderr);
    assert.match(res.stdout, /^Imported 4 link\(s\); skipped 0 already there; 1 conflict\(s\)\./);
    assert.match(res.stdout, new RegExp(`Conflicts \\(not overwritten; --on-conflict overwrite replaces them\\) \\(1\\):\\n  sho\\.rt/${prefix}1 → .+/${prefix}1: the slug leads to https://example\\.com/mine`));
    assert.equal((await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: mine.id } })).data.url, 'https://example.com/mine');
    if (opts.password) {
      assert.match(res.stdout, new RegExp(`Password-protected at the source, tagged password-not-imported \\(1\\):\\n  .+/${prefix}2`));
      const two = (await linksOf(t)).find((l) => l.slug === `${prefix}2`)!;
      assert.ok(two.tags.includes('password-not-imported'));
      assert.equal(two.passwordProtected, false);
    }

    const over = await run(from(f.url, '--on-conflict', 'overwrite', '--json'), { HOP_IMPORT_TOKEN: token });
    assert.equal(over.code, 0, over.stderr);
    assert.equal((JSON.parse(over.stdout) as ImportReport).counts.overwrite, 1);
    const replaced = (await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: mine.id } })).data;
    assert.equal(replaced.url, links[0].url);
    assert.equal(replaced.importedClicks, 10);

    const later = await fixture(fixtureLinks(230, unique(`${service}x-`)), { expireAt: 2 });
    const before = (await linksOf(t)).length;
    const expired = await run(from(later.url), { HOP_IMPORT_TOKEN: token });
    assert.equal(expired.code, 1);
    assert.match(expired.stderr, new RegExp(`${service} refused the token \\(HTTP 40[13]: .+\\) while reading .+: it may have expired`));
    assert.equal((await linksOf(t)).length, before, 'nothing written');
    const wrong = await run(from(later.url, '--token', 'not-the-token', '--dry-run'));
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /refused the token/);
  });
}
