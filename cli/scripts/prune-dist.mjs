#!/usr/bin/env node
// `tsc -b` never deletes outputs: a command renamed or removed in src/ would live on in dist/ (and
// in the manifest) on every machine that built before. Remove compiled files without a source.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

function walk(dir) {
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (!name.endsWith('.tsbuildinfo')) {
      // tsc's incremental state: deleting it makes every build recompile the whole CLI.
      const base = relative(dist, path).replace(/\.(js|d\.ts|js\.map|d\.ts\.map)$/, '');
      if (!existsSync(join(root, 'src', `${base}.ts`))) rmSync(path);
    }
  }
}
walk(dist);
