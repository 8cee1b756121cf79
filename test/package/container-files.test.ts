// The Dockerfile and compose.yaml. This machine has the docker client but no daemon and no access
// to image registries, so nothing is built or started here: the Dockerfile is linted with
// dockerfile-utils (the linter of VS Code's Docker support) and held to what the README promises;
// compose.yaml is checked by `docker compose config` where the compose plugin is installed, and in
// any case parsed and held to the same promises. The README says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { readmeSettings } from '../helpers/readme-settings.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((line) => line.trim() && !line.trim().startsWith('#'))
  .map((line) => {
    const [, name, args] = /^\s*(\w+)\s+(.*)$/.exec(line)!;
    return { name: name.toUpperCase(), args: args.trim() };
  });
const finalStage = instructions.slice(instructions.map((i) => i.name).lastIndexOf('FROM'));
const finalEnv = Object.fromEntries(finalStage.filter((i) => i.name === 'ENV').flatMap((i) => [...i.args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]])));

test('the Dockerfile passes the linter with no error or warning', () => {
  const problems = validate(dockerfile).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
  assert.deepEqual(problems, []);
});

test('the Dockerfile builds in one stage and runs the packed server in another, as a non-root user', () => {
  assert.ok(instructions.filter((i) => i.name === 'FROM').length >= 2, 'multi-stage');
  const build = instructions.filter((i) => i.name === 'RUN').map((i) => i.args).join('\n');
  assert.match(build, /npm ci\b/);
  assert.match(build, /node scripts\/pack\.mjs server/, 'the image installs what `npm run pack:server` packs');
  assert.ok(existsSync(join(root, 'scripts', 'pack.mjs')));
  const user = finalStage.filter((i) => i.name === 'USER').at(-1)?.args;
  assert.ok(user && !/^(root|0)(:|$)/.test(user), `runs as ${user}`);
  assert.equal(finalStage.at(-1)?.name, 'CMD');
  assert.match(finalStage.at(-1)!.args, /hop-server/);
});

test('the image listens on every interface, keeps its data in a volume and checks /readyz', () => {
  assert.equal(finalEnv.HOST, '0.0.0.0');
  assert.ok(finalEnv.HOP_DATA_DIR, 'HOP_DATA_DIR is set');
  const volumes = finalStage.filter((i) => i.name === 'VOLUME').map((i) => i.args).join(' ');
  assert.ok(volumes.includes(finalEnv.HOP_DATA_DIR), `the data directory ${finalEnv.HOP_DATA_DIR} is a volume`);
  assert.ok(finalStage.some((i) => i.name === 'EXPOSE' && i.args.split(/\s+/).includes(finalEnv.PORT)));
  const health = finalStage.find((i) => i.name === 'HEALTHCHECK')?.args ?? '';
  assert.match(health, /\/readyz/);
  for (const name of Object.keys(finalEnv)) {
    if (name !== 'NODE_ENV') assert.ok(readmeSettings().has(name), `${name} is a setting of the README's table`);
  }
});

test('.dockerignore keeps installed and built files out of the build', () => {
  const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
  for (const path of ['**/node_modules', '**/dist', '.hop-data']) assert.ok(ignored.includes(path), path);
});

const compose = parse(readFileSync(join(root, 'compose.yaml'), 'utf8'));

test('compose.yaml runs Hop on PostgreSQL and Redis once both are healthy', () => {
  assert.deepEqual(Object.keys(compose.services).sort(), ['hop', 'postgres', 'redis']);
  const hop = compose.services.hop;
  assert.equal(hop.build, '.');
  assert.match(hop.environment.DATABASE_URL, /^postgres:\/\/[^@]+@postgres:5432\//);
  assert.match(hop.environment.REDIS_URL, /^redis:\/\/redis:6379\//);
  for (const name of ['postgres', 'redis']) {
    assert.equal(hop.depends_on[name].condition, 'service_healthy');
    assert.ok(compose.services[name].healthcheck?.test, `${name} has a healthcheck`);
  }
  const dataMount = hop.volumes.find((v: string) => v.endsWith(`:${finalEnv.HOP_DATA_DIR}`));
  assert.ok(dataMount, "Hop's data directory is a volume");
  assert.ok(Object.hasOwn(compose.volumes, dataMount.split(':')[0]));
  assert.ok(Object.hasOwn(compose.volumes, compose.services.postgres.volumes[0].split(':')[0]));
  for (const name of Object.keys(hop.environment)) assert.ok(readmeSettings().has(name), `${name} is a setting of the README's table`);
});

test('docker compose config accepts compose.yaml (where the compose plugin is installed)', (t) => {
  const version = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (version.status !== 0) {
    t.skip('no docker compose plugin on this machine: compose.yaml is checked by the test above only');
    return;
  }
  const res = spawnSync('docker', ['compose', '-f', join(root, 'compose.yaml'), 'config', '--quiet'], { encoding: 'utf8', cwd: root });
  assert.equal(res.status, 0, res.stderr);
});
