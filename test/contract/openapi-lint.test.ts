// The served OpenAPI document lints clean with Redocly's CLI (its recommended rules), offline: the
// CLI runs with telemetry and update checks off, under a guard that refuses any connection off
// the machine. And what the linter cannot know: every status a route answers is documented, and
// request schemas are as strict as the server's validation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anonymous } from '../helpers/api.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
type Operation = { description?: string; tags?: string[]; responses: Record<string, unknown>; parameters?: { name: string; schema: { enum?: string[] } }[]; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } };
type Doc = { tags?: { name: string; description?: string }[]; paths: Record<string, Record<string, Operation>>; webhooks: Record<string, Record<string, Operation>> };

async function served(): Promise<Doc> {
  const res = await anonymous.raw('GET', '/v1/openapi.json');
  assert.equal(res.status, 200);
  return res.body as Doc;
}

test('Redocly lint finds no error and no warning in the served document', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hop-redocly-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(await served()));
    writeFileSync(join(dir, 'redocly.yaml'), [
      'extends:', '  - recommended', 'telemetry: off', 'rules:',
      // The test server's base URL is on localhost, as a test server's must be.
      '  no-server-example.com: off', '',
    ].join('\n'));
    // The one operation that takes no input, the metadata (RFC 8414), has no client error to answer.
    writeFileSync(join(dir, '.redocly.lint-ignore.yaml'), [
      'openapi.json:', '  operation-4xx-response:', "    - '#/paths/~1.well-known~1oauth-authorization-server/get/responses'", '',
    ].join('\n'));
    const run = spawnSync(process.execPath, [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${join(root, 'test/helpers/loopback-only.mjs')}`,
      },
      timeout: 100_000,
    });
    const start = run.stdout.indexOf('{');
    assert.ok(start >= 0, `no report from redocly (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    const report = JSON.parse(run.stdout.slice(start)) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`).join('\n');
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 1 }, problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every operation is tagged with a defined tag and described; the statuses routes answer are documented', async () => {
  const doc = await served();
  const defined = new Set(doc.tags?.map((t) => t.name));
  assert.ok(doc.tags?.every((t) => t.description), 'every tag is described');
  const operations = [...Object.entries(doc.paths), ...Object.entries(doc.webhooks)].flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ at: `${method} ${path}`, op })));
  for (const { at, op } of operations) {
    assert.ok(op.description && op.description.length > 20, `${at} has a description`);
    assert.ok(op.tags?.length && op.tags.every((t) => defined.has(t)), `${at}'s tags are defined`);
  }
  const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);
  assert.ok(statuses('/v1/qr/{qrId}/download', 'get').includes('404'), 'QR download: 404');
  assert.ok(statuses('/v1/qr/{qrId}/download', 'get').includes('304'), 'QR download: 304');
  for (const s of ['401', '403', '404', '429']) assert.ok(statuses('/v1/workspaces/{workspaceId}/events/stream', 'get').includes(s), `event stream: ${s}`);
  assert.ok(statuses('/v1/oauth/authorize', 'post').includes('400'), 'POST authorize: 400');
  for (const s of ['400', '401', '413', '415']) assert.ok(statuses('/v1/oauth/token', 'post').includes(s), `token: ${s}`);
});

test('request schemas are as strict as validation: PATCH bodies, URL formats, the authorize parameters', async () => {
  const doc = await served();
  const body = (path: string, method: string) => doc.paths[path][method].requestBody!.content['application/json'].schema;
  assert.equal(body('/v1/workspaces/{workspaceId}/links/{linkId}', 'patch').minProperties, 1);
  assert.equal(body('/v1/links/{linkId}', 'patch').minProperties, 1);
  assert.equal(body('/v1/workspaces/{workspaceId}/webhooks/{webhookId}', 'patch').minProperties, 1);
  const url = (body('/v1/workspaces/{workspaceId}/links', 'post').properties as Record<string, { format?: string }>).url;
  assert.equal(url.format, 'uri');
  const authorize = Object.fromEntries(doc.paths['/v1/oauth/authorize'].get.parameters!.map((p) => [p.name, p.schema]));
  assert.deepEqual(authorize.response_type.enum, ['code']);
  assert.deepEqual(authorize.code_challenge_method.enum, ['S256']);
});
