// The CLI as the published package runs it: one esbuild pass over the compiled CLI, with every
// command and hook its own entry point (oclif still finds them through the manifest and loads only
// the one it runs) and the code they share, @oclif/core and the contracts included, in chunks.
// A cold start then reads a handful of files instead of some 250 modules of oclif and its
// dependencies, most of its time in the checkout.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { oclifLazyModules } from './oclif-lazy-modules.mjs';

/** Loaded from node_modules at run time: `open` runs a script it ships beside its code. */
const RUNTIME_PACKAGES = ['open'];

/** A package's name from an import specifier (`csv-parse/sync` -> `csv-parse`). */
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * Packages our code imports with `import()` stay out of the bundle, loaded from node_modules by
 * Node itself: they are loaded only by the commands that need them, so bundling them would save
 * nothing at start, and a split chunk of a CommonJS package offers only its default export where
 * Node's own import offers its named ones too (`const { parse } = await import('yaml')`).
 */
function dynamicImportsExternal(found) {
  return {
    name: 'dynamic-imports-external',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind !== 'dynamic-import' || args.path.startsWith('node:')) return undefined;
        found.add(packageOf(args.path));
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * oclif plugins whose commands the bundle carries as commands of its own: oclif would otherwise
 * find, read and load each plugin (its package.json and manifest, its own copy of @oclif/core) at
 * every start, whatever the command.
 */
export const BUNDLED_PLUGINS = ['@oclif/plugin-autocomplete'];

/** The commands of `plugin` as the manifest lists them, each with the file it is in. */
export function pluginCommands(root, plugin) {
  const dir = join(root, 'node_modules', plugin);
  const { commands } = JSON.parse(readFileSync(join(dir, 'oclif.manifest.json'), 'utf8'));
  // In the bundle, the plugin's lib/commands/<id>.js is dist/commands/<id>.js.
  return Object.entries(commands).map(([id, command]) => ({
    id,
    command: { ...command, relativePath: ['dist', ...command.relativePath.slice(1)] },
    file: join(dir, ...command.relativePath),
  }));
}

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

// The package's bin, not bundled: what must happen before the bundle is even compiled.
const BIN = `#!/usr/bin/env node
// hop: the bundle in dist/ (scripts/pack/bundle-cli.mjs in Hop's repository).
import module from 'node:module';

// Node 22.1 and later keep V8's compiled code of the bundle on disk, so a start after the first
// compiles nothing; Node 20 has no such cache.
module.enableCompileCache?.();
// oclif checks Node against the engine range of its own package.json when it loads, a file the
// bundle does not carry; this package's range is npm's to check at install.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true';
await import('../dist/main.js');
`;

/**
 * Writes the bundle into `stageDir`; returns the packages it loads from node_modules at run time,
 * which the package must carry.
 */
export async function bundleCli({ root, stageDir }) {
  const runtime = new Set(RUNTIME_PACKAGES);
  mkdirSync(join(stageDir, 'bin'), { recursive: true });
  writeFileSync(join(stageDir, 'bin', 'hop.js'), BIN, { mode: 0o755 });
  const dist = join(root, 'cli', 'dist');
  const entryDir = join(stageDir, '.entry');
  mkdirSync(entryDir, { recursive: true });
  const main = join(entryDir, 'main.js');
  writeFileSync(main, `import { launch } from ${JSON.stringify(join(dist, 'launch.js'))};\n\nawait launch(new URL('../package.json', import.meta.url));\n`);
  const lazy = [...jsFiles(join(dist, 'commands')), ...jsFiles(join(dist, 'hooks'))];
  const plugins = BUNDLED_PLUGINS.flatMap((plugin) => pluginCommands(root, plugin)).map(({ id, command, file }) => {
    const entry = join(entryDir, 'plugins', `${id.replaceAll(':', '-')}.js`);
    mkdirSync(dirname(entry), { recursive: true });
    writeFileSync(entry, `export { default } from ${JSON.stringify(file)};\n`);
    return { in: entry, out: command.relativePath.join('/').replace(/\.js$/, '') };
  });
  const result = await build({
    entryPoints: [
      { in: main, out: 'dist/main' },
      ...lazy.map((file) => ({ in: file, out: relative(join(root, 'cli'), file).replace(/\.js$/, '') })),
      ...plugins,
    ],
    outdir: stageDir,
    bundle: true,
    splitting: true,
    chunkNames: 'dist/chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // oclif reads TypeScript sources through these only in development, and catches their absence.
    external: [...RUNTIME_PACKAGES, 'typescript', 'ts-node'],
    // CommonJS dependencies bundled into ES modules still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __hopCreateRequire } from 'node:module';\nconst require = __hopCreateRequire(import.meta.url);" },
    minify: !process.env.HOP_PACK_NO_MINIFY,
    legalComments: 'linked',
    plugins: [oclifLazyModules, dynamicImportsExternal(runtime)],
    logLevel: 'warning',
    metafile: Boolean(process.env.HOP_PACK_METAFILE),
  });
  if (result.metafile) writeFileSync(process.env.HOP_PACK_METAFILE, JSON.stringify(result.metafile));
  return [...runtime].sort();
}
