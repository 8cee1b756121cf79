// docs/ci.md: `hop ci trust add|list|remove`, and a CI job that runs `hop links apply` with no
// stored secret: only GitHub Actions' token request variables (or HOP_OIDC_TOKEN). A local OIDC
// issuer on 127.0.0.1 stands in for GitHub's. The repository's action.yml runs its steps in bash
// as a runner would, installing the CLI from the packed tarball with the registry unreachable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { cleanEnv, pack } from '../../scripts/pack/install-tarball.mjs';
import type { CiTrust } from '@hop/shared';
import { ADMIN_TOKEN, team, unique, type Team } from '../helpers/api.js';
import { freePort, startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { githubClaims, startIssuer, type LocalIssuer } from '../helpers/oidc-issuer.js';
import { hopSession } from './run-hop.js';

let server: Awaited<ReturnType<typeof startServer>>;
let issuer: LocalIssuer;
let baseUrl: string;
let t: Team;
const dir = scratchDir('hop-ci-cli-');

before(async () => {
  issuer = await startIssuer();
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  server = await startServer({ dataDir: scratchDir('hop-ci-cli-server-'), port, env: { HOP_BASE_URL: baseUrl, HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
  t = await team('free', server.url);
});
after(async () => {
  await server?.stop();
  await issuer?.close();
});

test('an admin adds a trust; a GitHub Actions job applies links with no secret; the trust shows its use', async () => {
  const admin = hopSession();
  const env = { HOP_API_URL: server.url, HOP_WORKSPACE: t.slug };
  const login = await admin.run(['login', '--with-token'], { input: t.token, env: { HOP_API_URL: server.url } });
  assert.equal(login.code, 0, login.stderr);
  const repository = `acme/${t.slug}`;
  const trust = await admin.json<CiTrust>(['ci', 'trust', 'add', '--repository', repository, '--issuer', issuer.url,
    '--ref', 'refs/heads/main', '--scope', 'links:read', '--scope', 'links:write'], { env });
  assert.equal(trust.repository, repository);
  assert.equal(trust.lastUsedAt, null);

  // The job: a fresh runner with no settings and no HOP_API_KEY, only what GitHub sets with `id-token: write`.
  issuer.actionsClaims = githubClaims(repository);
  const job = hopSession();
  const slug = unique('ci-');
  const file = join(dir, 'links.yaml');
  writeFileSync(file, `links:\n  - slug: ${slug}\n    url: https://example.com/from-ci\n`);
  const jobEnv = { HOP_API_URL: server.url, ACTIONS_ID_TOKEN_REQUEST_URL: issuer.actionsUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: issuer.requestToken };
  const plan = await job.run(['links', 'apply', '-f', file, '--plan'], { env: jobEnv });
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /Plan: 1 to create, 0 to update, 0 to delete\./);
  const applied = await job.run(['links', 'apply', '-f', file], { env: jobEnv });
  assert.equal(applied.code, 0, applied.stderr);
  const { data: links } = await t.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: {} });
  assert.deepEqual(links.map((l) => l.slug), [slug]);
  assert.ok(issuer.hits.includes('/actions-token'), 'the ID token came from the Actions endpoint');

  const [listed] = await admin.json<CiTrust[]>(['ci', 'trust', 'list'], { env });
  assert.equal(listed.id, trust.id);
  assert.ok(listed.lastUsedAt, 'the trust shows its last use');
  const table = await admin.run(['ci', 'trust', 'list'], { env });
  assert.match(table.stdout, new RegExp(`${trust.id}.*${repository.slice(0, 8)}`));

  // HOP_OIDC_TOKEN: any CI that can mint an ID token with the server's URL as audience.
  const gitlabLike = await issuer.sign({ ...githubClaims(repository), aud: baseUrl });
  const whoami = await job.json<{ credentialKind: string; workspace: string }>(['whoami'], { env: { HOP_API_URL: server.url, HOP_OIDC_TOKEN: gitlabLike } });
  assert.equal(whoami.credentialKind, 'ci');
  assert.equal(whoami.workspace, t.workspaceId);

  // A job the trust does not name: exit 4, and the reason.
  issuer.actionsClaims = githubClaims(repository, { ref: 'refs/heads/feature' });
  const refused = await job.run(['links', 'apply', '-f', file, '--plan'], { env: jobEnv });
  assert.equal(refused.code, 4, refused.stderr);
  assert.match(refused.stderr, /refused this job's ID token \(github-actions\): ref: the trust requires refs\/heads\/main/);
  // HOP_API_KEY wins over the job's identity: set (even empty), no exchange is tried.
  const withKey = await job.run(['links', 'apply', '-f', file, '--plan'], { env: { ...jobEnv, HOP_API_KEY: '' } });
  assert.equal(withKey.code, 4);
  assert.match(withKey.stderr, /HOP_API_KEY is set but empty/);

  const removed = await admin.json<CiTrust>(['ci', 'trust', 'remove', trust.id, '--yes'], { env });
  assert.equal(removed.id, trust.id);
  issuer.actionsClaims = githubClaims(repository);
  const gone = await job.run(['links', 'apply', '-f', file, '--plan'], { env: jobEnv });
  assert.equal(gone.code, 4);
  assert.match(gone.stderr, /no CI trust names/);
});

function run(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface ActionStep { name: string; shell: string; env?: Record<string, string>; run: string }
interface Action { inputs: Record<string, { default?: string; required?: boolean }>; runs: { using: string; steps: ActionStep[] } }

test('action.yml: installs the CLI, plans on a pull request, applies on a push to main, runs a command', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;
  assert.equal(action.runs.using, 'composite');
  const repository = `acme/action-${t.slug}`;
  await t.api.call('createCiTrust', { params: { workspaceId: t.workspaceId }, body: { issuer: issuer.url, repository, ref: 'refs/heads/main', scopes: ['links:read', 'links:write'] } });
  const home = join(dir, 'runner');
  const prefix = join(dir, 'runner-prefix');
  mkdirSync(home, { recursive: true });
  const summary = join(home, 'summary.md');
  const slug = unique('action-');
  writeFileSync(join(home, 'links.yaml'), `links:\n  - slug: ${slug}\n    url: https://example.com/action\n`);
  const tarball = pack('cli', dir);

  /** Runs the action's steps (from `from`) as a runner does: inputs into env, `bash -eo pipefail`. */
  const runAction = async (given: Record<string, string>, event: Record<string, string>, from = 0) => {
    const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
    for (const [k, v] of Object.entries(action.inputs)) if (v.required) assert.ok(given[k], `${k} is required`);
    const outputs: string[] = [];
    for (const step of action.runs.steps.slice(from)) {
      assert.equal(step.shell, 'bash');
      assert.ok(!step.run.includes('${{'), `${step.name}: inputs reach the script through env only, never pasted into it`);
      const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, v.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, name: string) => inputs[name])]));
      const script = join(home, 'step.sh');
      writeFileSync(script, step.run);
      // Not spawnSync: the issuer answering the job's token request runs in this process.
      const res = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        cwd: home,
        env: {
          ...cleanEnv(home), npm_config_prefix: prefix, npm_config_offline: 'true', PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, NO_COLOR: '1',
          CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: repository, GITHUB_STEP_SUMMARY: summary,
          ACTIONS_ID_TOKEN_REQUEST_URL: issuer.actionsUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: issuer.requestToken, ...event, ...env,
        },
      });
      assert.equal(res.status, 0, `${step.name}: ${res.stdout}\n${res.stderr}`);
      outputs.push(res.stdout);
    }
    return outputs;
  };
  const inputs = { 'api-url': server.url, 'cli-package': tarball };
  const slugs = async () => (await t.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: { limit: 100 } })).data.map((l) => l.slug);

  issuer.actionsClaims = githubClaims(repository, { event_name: 'pull_request' });
  const [, plan] = await runAction(inputs, { GITHUB_EVENT_NAME: 'pull_request', GITHUB_REF: 'refs/pull/7/merge' });
  assert.match(plan, /Plan: 1 to create, 0 to update, 0 to delete\./);
  assert.ok(!(await slugs()).includes(slug), 'a pull request only plans');
  assert.match(readFileSync(summary, 'utf8'), /### Hop links: Plan \(links\.yaml\)[\s\S]*Plan: 1 to create/);

  issuer.actionsClaims = githubClaims(repository);
  await runAction(inputs, { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, 1);
  assert.ok((await slugs()).includes(slug), 'a push to main applies');

  const [listed] = await runAction({ ...inputs, command: `links get '${slug}' --json` }, { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, 1);
  assert.equal((JSON.parse(listed) as { slug: string }).slug, slug);
});
