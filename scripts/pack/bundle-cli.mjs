// The CLI as the published package runs it: one esbuild pass over the compiled CLI into a single
// CommonJS file, dist/hop.js, @oclif/core and the contracts included, that the bin compiles with a
// V8 code cache (cli-bin.cjs). Every command and hook is a module of the bundle evaluated only when
// it runs, and keeps a file where oclif's manifest says it is, which hands oclif the bundle's. A
// cold start then reads two files instead of some 250 modules of oclif and its dependencies, and
// a start after the first compiles next to nothing.
import { createHash } from 'node:crypto';
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
 * nothing at start. The bundle cannot `import()` (see `supported` below): each such import loads a
 * small module of the bundle that re-exports the package as `require()` gives it, which since Node
 * 20.19 and 22.12 loads ES modules too. That module is an ES module outside any package, so the
 * namespace it offers is the one `import()` would (a CommonJS package's `module.exports` as its
 * default and its properties by name; an ES module's own exports), where esbuild's own lowering, in
 * a file of a `"type": "module"` package, would make an ES module's namespace its default.
 */
function dynamicImportsExternal(found) {
  return {
    name: 'dynamic-imports-external',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.namespace === 'runtime-import') return { path: args.path, external: true };
        if (args.kind !== 'dynamic-import' || args.path.startsWith('node:')) return undefined;
        found.add(packageOf(args.path));
        return { path: args.path, namespace: 'runtime-import' };
      });
      b.onLoad({ filter: /.*/, namespace: 'runtime-import' }, (args) => ({
        contents: `export * from ${JSON.stringify(args.path)};\nexport { default } from ${JSON.stringify(args.path)};\n`,
        loader: 'js',
      }));
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

/**
 * Writes the bundle into `stageDir`; returns the packages it loads from node_modules at run time,
 * which the package must carry.
 */
export async function bundleCli({ root, stageDir, commandIds }) {
  const runtime = new Set(RUNTIME_PACKAGES);
  const dist = join(root, 'cli', 'dist');
  const entryDir = join(stageDir, '.entry');
  mkdirSync(entryDir, { recursive: true });
  // Each command, hook and bundled plugin command by the path oclif's manifest gives it.
  const modules = [
    ...[...jsFiles(join(dist, 'commands')), ...jsFiles(join(dist, 'hooks'))].map((file) => ({ file, path: relative(join(root, 'cli'), file) })),
    ...BUNDLED_PLUGINS.flatMap((plugin) => pluginCommands(root, plugin)).map(({ command, file }) => ({ file, path: command.relativePath.join('/') })),
  ];
  // require() rather than import(): oclif loads a command with require() (the package is CommonJS),
  // which must answer at once; the module is still evaluated only when its command runs.
  const entry = join(entryDir, 'hop.js');
  writeFileSync(entry, [
    `export { launch } from ${JSON.stringify(join(dist, 'launch.js'))};`,
    'export const modules = {',
    ...modules.map(({ file, path }) => `  ${JSON.stringify(path)}: () => require(${JSON.stringify(file)}),`),
    '};',
    '',
  ].join('\n'));
  const result = await build({
    entryPoints: [{ in: entry, out: 'dist/hop' }],
    outdir: stageDir,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // import() as require(): a script compiled with a code cache cannot import() on Node 20 (the
    // callback is lost with the cache), and require() loads ES modules since Node 20.19 and 22.12.
    supported: { 'dynamic-import': false },
    // oclif reads TypeScript sources through these only in development, and catches their absence.
    external: [...RUNTIME_PACKAGES, 'typescript', 'ts-node'],
    minify: !process.env.HOP_PACK_NO_MINIFY,
    legalComments: 'linked',
    // The file is the module's function itself, as Node would wrap it: the bin compiles it as it
    // is read, where wrapping it would copy 2 MB of source once more before V8 sees it.
    banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
    footer: { js: '})' },
    plugins: [oclifLazyModules, dynamicImportsExternal(runtime)],
    logLevel: 'warning',
    metafile: Boolean(process.env.HOP_PACK_METAFILE),
  });
  if (result.metafile) writeFileSync(process.env.HOP_PACK_METAFILE, JSON.stringify(result.metafile));
  // ASCII only, so the bin reads the file as Latin-1 (no UTF-8 decoding): esbuild escapes all but
  // the odd character of a regular expression (a terminal control code), escaped here.
  const bundleFile = join(stageDir, 'dist', 'hop.js');
  const ascii = readFileSync(bundleFile, 'utf8').replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(bundleFile, ascii);
  // Where oclif looks for each command, a file that hands it the bundle's.
  for (const { path } of modules) {
    const stub = join(stageDir, path);
    mkdirSync(dirname(stub), { recursive: true });
    const bundle = relative(dirname(stub), join(stageDir, 'dist', 'hop.js')).replaceAll('\\', '/');
    writeFileSync(stub, `module.exports = require(${JSON.stringify(bundle.startsWith('.') ? bundle : `./${bundle}`)}).modules[${JSON.stringify(path)}]();\n`);
  }
  const hash = createHash('sha256').update(ascii).digest('hex');
  const bin = readFileSync(new URL('./cli-bin.cjs', import.meta.url), 'utf8').replace('%BUNDLE_HASH%', hash).replace('%COMMAND_IDS%', commandIds.join(' '));
  mkdirSync(join(stageDir, 'bin'), { recursive: true });
  writeFileSync(join(stageDir, 'bin', 'hop.js'), bin, { mode: 0o755 });
  return [...runtime].sort();
}
