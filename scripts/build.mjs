#!/usr/bin/env node
// `npm run build`: compiles the workspaces (`tsc -b`, incremental by itself), then writes the CLI's
// command manifest and the dashboard bundle, each only when something it is made from changed.
// Those two take most of a build and `npm test` builds first, so a run whose sources did not change
// since the last build (CI's second and third test stages) skips them.
//
// A step is skipped only when its fingerprint file says it last succeeded on inputs with exactly the
// current content, and its outputs are exactly what it then wrote: a stale or hand-edited bundle is
// rebuilt. Fingerprints are hashes of the path and content of every file, kept in
// node_modules/.cache/hop-build/ (so a fresh `npm ci` builds everything). A failed step leaves no
// fingerprint. HOP_BUILD_FORCE=1 runs every step.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampDir = join(root, 'node_modules', '.cache', 'hop-build');

const steps = [
  {
    name: 'cli-manifest',
    label: 'CLI manifest',
    run: ['npm', 'run', '--silent', 'manifest', '-w', 'cli'],
    // oclif reads the compiled commands (and what they import from shared), and its own version.
    inputs: ['cli/package.json', 'cli/tsconfig.json', 'cli/src', 'cli/dist', 'shared/dist', 'package-lock.json'],
    outputs: ['cli/oclif.manifest.json'],
  },
  {
    name: 'web',
    label: 'dashboard bundle',
    run: ['npm', 'run', '--silent', 'build', '-w', 'web'],
    // Vite bundles web/src with shared/src (aliased in vite.config.ts); the lock file pins Vite,
    // its plugins and every library in the bundle.
    inputs: ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/tsconfig.json', 'web/package.json', 'shared/src', 'package-lock.json'],
    outputs: ['web/dist'],
  },
];

function run(command, label) {
  const res = spawnSync(command[0], command.slice(1), { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    process.stderr.write(`build: ${label} failed\n`);
    process.exit(res.status ?? 1);
  }
}

function files(rel, out = []) {
  const abs = join(root, rel);
  if (!existsSync(abs)) return out;
  if (!statSync(abs).isDirectory()) {
    out.push(rel);
    return out;
  }
  for (const name of readdirSync(abs).sort()) {
    // tsc's incremental state changes without any output changing.
    if (name === 'node_modules' || name.endsWith('.tsbuildinfo')) continue;
    files(`${rel}/${name}`, out);
  }
  return out;
}

/** A hash of the path and content of every file under `paths`; null when one of them is missing. */
function fingerprint(paths) {
  const hash = createHash('sha256');
  for (const rel of paths) {
    if (!existsSync(join(root, rel))) return null;
    for (const file of files(rel)) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

run([join(root, 'node_modules', '.bin', 'tsc'), '-b'], 'tsc -b');
// The manifest step prunes compiled files left by removed sources before oclif reads dist/; done
// here first too, so the fingerprint of cli/dist is taken as the step will see it.
run([process.execPath, join(root, 'cli', 'scripts', 'prune-dist.mjs')], 'pruning cli/dist');

mkdirSync(stampDir, { recursive: true });
for (const step of steps) {
  const stampFile = join(stampDir, `${step.name}.json`);
  const inputs = fingerprint(step.inputs);
  const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : null;
  if (process.env.HOP_BUILD_FORCE !== '1' && stamp && inputs && stamp.inputs === inputs && stamp.outputs === fingerprint(step.outputs)) {
    process.stderr.write(`build: ${step.label} is up to date (its inputs have not changed since it was built)\n`);
    continue;
  }
  rmSync(stampFile, { force: true });
  run(step.run, step.label);
  const outputs = fingerprint(step.outputs);
  if (!outputs) {
    process.stderr.write(`build: ${step.label} wrote no ${step.outputs.join(', ')}\n`);
    process.exit(1);
  }
  // The inputs as they were before the step ran: an edit made meanwhile is built next time.
  if (inputs) writeFileSync(stampFile, `${JSON.stringify({ inputs, outputs })}\n`);
}
