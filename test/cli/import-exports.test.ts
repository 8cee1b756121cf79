// hop links import --from <service> --file: the export files Bitly, Dub and Shlink's web client
// write (recorded in test/fixtures/import/), and the services without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unique } from '../helpers/api.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { importSetup, linksOf, type ImportReport } from './import-scenario.js';

const { ctx, run } = importSetup();
const dir = scratchDir('hop-import-');

/** The recorded file with its back-halves made unique to this run (slugs on the default domain are shared by every workspace). */
function recorded(service: string, prefix: string): string {
  const text = readFileSync(new URL(`../fixtures/import/${service}-export.csv`, import.meta.url), 'utf8')
    .replace(/\/(spring-launch|docs|with\.dot)\b/g, `/${prefix}$1`)
    .replace(/,(spring-launch|docs|with\.dot),/g, `,${prefix}$1,`);
  const file = join(dir, `${prefix}.csv`);
  writeFileSync(file, text);
  return file;
}

for (const service of ['bitly', 'dub', 'shlink']) {
  test(`${service}: its export file carries slug, destination, title, tags, creation time and clicks`, async () => {
    const prefix = unique(`${service}e-`);
    const file = recorded(service, prefix);
    const plan = await run(['--from', service, '--file', file, '--dry-run']);
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /^Plan: 2 to create, 0 to skip \(already there\), 0 conflict\(s\), 1 that cannot be imported\./);

    const res = await run(['--from', service, '--file', file, '--json']);
    assert.equal(res.code, 3, res.stderr);
    const report = JSON.parse(res.stdout) as ImportReport;
    assert.deepEqual([report.counts.create, report.counts.invalid, report.created], [2, 1, 2]);
    const bad = report.links.find((l) => l.action === 'invalid')!;
    assert.match(bad.reason!, /^slug: may hold only A-Z, a-z, 0-9, _ and -/);
    const docs = report.links.find((l) => l.slug === `${prefix}docs`)!;
    assert.deepEqual([docs.source, docs.domain, docs.domainChanged], [`go.acme.test/${prefix}docs`, null, true]);

    const made = new Map((await linksOf(ctx.t)).map((l) => [l.slug, l]));
    const spring = made.get(`${prefix}spring-launch`)!;
    assert.equal(spring.title, 'Spring launch');
    assert.deepEqual([...spring.tags].sort(), ['launch', 'marketing']);
    assert.equal(spring.importedClicks, 1289);
    assert.equal(spring.originalCreatedAt, '2021-03-04T10:11:12.000Z');
    assert.equal(made.get(`${prefix}docs`)!.importedClicks, 77);

    const again = await run(['--from', service, '--file', file, '--json']);
    assert.equal(again.code, 3, 'the bad back-half still cannot be imported');
    assert.deepEqual((JSON.parse(again.stdout) as ImportReport).counts, { create: 0, overwrite: 0, skip: 2, conflict: 0, invalid: 1 });
  });
}

test('kutt and yourls have no export file: --file is refused, and a token is asked for', async () => {
  for (const service of ['kutt', 'yourls']) {
    const res = await run(['--from', service, '--file', join(dir, 'none.csv')]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, new RegExp(`${service} has no export file: read its API with --token`));
  }
  const noToken = await run(['--from', 'shlink', '--url', 'https://s.example.test']);
  assert.equal(noToken.code, 2);
  assert.match(noToken.stderr, /--from shlink needs a Shlink API key .+ in --token or HOP_IMPORT_TOKEN, or --file with/);
  const noUrl = await run(['--from', 'yourls', '--token', 'x']);
  assert.equal(noUrl.code, 2);
  assert.match(noUrl.stderr, /--from yourls reads a self-hosted server: give its address with --url/);
  const clear = await run(['--from', 'shlink', '--url', 'http://s.example.test', '--token', 'x']);
  assert.equal(clear.code, 2);
  assert.match(clear.stderr, /use https \(plain http only to this machine\)/);
  const wrongFile = await run(['--from', 'dub', '--file', recorded('shlink', unique('w-'))]);
  assert.equal(wrongFile.code, 2);
  assert.match(wrongFile.stderr, /not a Dub export: no "Destination URL" column/);
});
