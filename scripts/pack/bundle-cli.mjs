// The CLI as the published package runs it: one esbuild pass over the compiled CLI, with every
// command and hook its own entry point (oclif still finds them through the manifest and loads only
// the one it runs) and the code they share, @oclif/core and the contracts included, in chunks.
// A cold start then reads a handful of files instead of some 250 modules of oclif and its
// dependencies, most of its time in the checkout.
import { readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { oclifLazyModules } from './oclif-lazy-modules.mjs';

/** Loaded from node_modules at run time: oclif loads its plugins by name, and `open` runs a script it ships. */
export const CLI_RUNTIME_PACKAGES = ['@oclif/plugin-autocomplete', 'open'];

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

export async function bundleCli({ root, stageDir }) {
  const dist = join(root, 'cli', 'dist');
  const entryDir = join(stageDir, '.entry');
  mkdirSync(entryDir, { recursive: true });
  const bin = join(entryDir, 'hop.js');
  // oclif checks Node against its own engine range when it loads (the range of this package is
  // npm's to check at install); the check costs a cold start the whole of semver. It must be off
  // before oclif's module runs, so in a module imported first.
  writeFileSync(join(entryDir, 'no-engine-check.js'), "process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true';\n");
  writeFileSync(
    bin,
    `#!/usr/bin/env node\nimport './no-engine-check.js';\nimport { launch } from ${JSON.stringify(join(dist, 'launch.js'))};\n\nawait launch(new URL('../package.json', import.meta.url));\n`,
  );
  const lazy = [...jsFiles(join(dist, 'commands')), ...jsFiles(join(dist, 'hooks'))];
  const result = await build({
    entryPoints: [{ in: bin, out: 'bin/hop' }, ...lazy.map((file) => ({ in: file, out: relative(join(root, 'cli'), file).replace(/\.js$/, '') }))],
    outdir: stageDir,
    bundle: true,
    splitting: true,
    chunkNames: 'dist/chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // oclif reads TypeScript sources through these only in development, and catches their absence.
    external: [...CLI_RUNTIME_PACKAGES, 'typescript', 'ts-node'],
    // CommonJS dependencies bundled into ES modules still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __hopCreateRequire } from 'node:module';\nconst require = __hopCreateRequire(import.meta.url);" },
    minify: !process.env.HOP_PACK_NO_MINIFY,
    legalComments: 'linked',
    plugins: [oclifLazyModules],
    logLevel: 'warning',
    metafile: Boolean(process.env.HOP_PACK_METAFILE),
  });
  if (result.metafile) writeFileSync(process.env.HOP_PACK_METAFILE, JSON.stringify(result.metafile));
}
