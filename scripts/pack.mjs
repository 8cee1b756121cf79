#!/usr/bin/env node
// `npm run pack:cli` / `npm run pack:server` (node scripts/pack.mjs cli|server [--out <dir>]): packs
// the CLI (`hop-cli`, the `hop` bin) or the server (`hop-server`, the `hop-server` bin) into one
// npm tarball from the built checkout, with everything it runs on inside it, and prints the
// tarball's path. Build first (`npm run build`). Installing the tarball needs no registry.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageCli } from './pack/stage-cli.mjs';
import { stageServer } from './pack/stage-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [which, ...rest] = process.argv.slice(2);
const recipes = { cli: stageCli, server: stageServer };
if (!recipes[which]) {
  process.stderr.write('usage: node scripts/pack.mjs cli|server [--out <dir>]\n');
  process.exit(2);
}
const outIndex = rest.indexOf('--out');
const outDir = resolve(outIndex >= 0 ? rest[outIndex + 1] : join(root, 'dist-packages'));
mkdirSync(outDir, { recursive: true });

const stageDir = mkdtempSync(join(tmpdir(), `hop-pack-${which}-`));
try {
  await recipes[which]({ root, stageDir });
  rmSync(join(stageDir, '.entry'), { recursive: true, force: true });
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], { cwd: stageDir, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout);
  process.stdout.write(`${join(outDir, filename)}\n`);
} finally {
  rmSync(stageDir, { recursive: true, force: true });
}
