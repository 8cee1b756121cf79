// The contracts (@hop/shared) are a private workspace package: a published package carries their
// compiled files in a folder of its own and imports them by relative path. esbuild rewrites only
// the import specifiers of each compiled file (nothing is bundled, every other import is kept as
// written), so each file stays at its place and `import.meta.url` keeps meaning what it meant.
import { cpSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { build } from 'esbuild';

const SHARED = '@hop/shared';

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return name.endsWith('.js') && !name.endsWith('.test.js') ? [path] : [];
  });
}

/** Copies shared/dist's modules to `stageDir/shared/dist`; returns specifier -> staged file. */
function copyContracts(root, stageDir) {
  const from = join(root, 'shared', 'dist');
  const to = join(stageDir, 'shared', 'dist');
  for (const file of jsFiles(from)) cpSync(file, join(to, relative(from, file)));
  const { exports } = JSON.parse(readFileSync(join(root, 'shared', 'package.json'), 'utf8'));
  return new Map(Object.entries(exports).map(([sub, target]) => [join(SHARED, sub).split(sep).join('/'), join(stageDir, 'shared', target.default)]));
}

/**
 * Copies the compiled modules under `root/<dir>` to `stageDir/<dir>`, with every import of the
 * contracts pointing at the staged copy of them.
 */
export async function stageWithContracts({ root, stageDir, dir }) {
  const contracts = copyContracts(root, stageDir);
  const rewrite = {
    name: 'contracts-by-path',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (!args.path.startsWith(SHARED)) return { path: args.path, external: true };
        const target = contracts.get(args.path);
        if (!target) throw new Error(`${args.importer} imports ${args.path}, which @hop/shared does not export`);
        const staged = join(stageDir, relative(root, args.importer));
        const rel = relative(dirname(staged), target).split(sep).join('/');
        return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
      });
    },
  };
  await build({
    entryPoints: jsFiles(join(root, dir)),
    outbase: root,
    outdir: stageDir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [rewrite],
    logLevel: 'warning',
  });
}
