// Copies the installed packages a published package needs at run time into its own node_modules,
// so the tarball carries them (`bundleDependencies`) and installs with no registry. The workspace's
// node_modules is already a valid tree; the copy keeps each package where it is hoisted, and every
// package is checked to resolve, in the copy, the very versions it resolves in the checkout.
import { cpSync, existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const NOT_RUN = /\.(d\.[cm]?ts|map)$/;
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Where `name` resolves from `fromDir` as Node resolves a bare import, up to `top`; null if nowhere. */
function resolvePackage(name, fromDir, top) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dir === top || dirname(dir) === dir) return null;
  }
}

const dependencyNames = (pkg) => [
  ...Object.keys(pkg.dependencies ?? {}).map((name) => ({ name, optional: false })),
  ...Object.keys({ ...pkg.optionalDependencies, ...pkg.peerDependencies }).map((name) => ({ name, optional: true })),
];

/**
 * Copies `names` as the workspace `fromDir` resolves them (and `alsoFrom.names` as `alsoFrom.dir`
 * resolves them), and everything they depend on (optional and peer dependencies when installed),
 * into `stageDir/node_modules`; those named go to its top, where the package's own code finds them.
 * A dependency keeps its hoisted place unless another version took it; then it goes under the
 * package that needs it, as npm would nest it. Returns the version copied of each name.
 */
export function copyDependencyClosure({ root, fromDir, names, alsoFrom, stageDir }) {
  const placed = new Map(); // place in the stage -> source directory
  const localModules = join(fromDir, 'node_modules') + sep;
  const naturalPlace = (dir) => {
    const rel = dir.startsWith(localModules) ? relative(fromDir, dir) : relative(root, dir);
    if (!rel.startsWith(`node_modules${sep}`)) throw new Error(`${dir} is not an installed package (a workspace link?)`);
    return rel;
  };
  const queue = [
    ...names.map((name) => ({ name, from: fromDir, fromPlace: '', optional: false, top: true })),
    ...(alsoFrom?.names ?? []).map((name) => ({ name, from: alsoFrom.dir, fromPlace: '', optional: false, top: true })),
  ];
  const visited = new Set();
  while (queue.length) {
    const { name, from, fromPlace, optional, top } = queue.shift();
    const dir = resolvePackage(name, from, root);
    if (!dir) {
      if (optional) continue;
      throw new Error(`${name} (needed by ${relative(root, from) || '.'}) is not installed`);
    }
    let at = top ? join('node_modules', name) : naturalPlace(dir);
    if (placed.has(at) && placed.get(at) !== dir) at = join(fromPlace, 'node_modules', name);
    if (placed.has(at) && placed.get(at) !== dir) throw new Error(`two versions of ${name} want ${at}: ${placed.get(at)} and ${dir}`);
    if (visited.has(`${at}\0${dir}`)) continue;
    visited.add(`${at}\0${dir}`);
    placed.set(at, dir);
    for (const dep of dependencyNames(readJson(join(dir, 'package.json')))) queue.push({ ...dep, from: dir, fromPlace: at });
  }
  for (const [at, dir] of placed) {
    // A package's own nested node_modules is left out: what it needs from there is placed above.
    // Type declarations, source maps and documentation other than licences are not run: leaving
    // them out takes a fifth off the server package's installed size and a quarter off its files.
    const keep = (src) => {
      if (src === dir) return true;
      const rel = relative(dir, src);
      return !rel.split(sep).includes('node_modules') && !NOT_RUN.test(rel) && !(/\.md$/i.test(rel) && !/licen[cs]e/i.test(rel));
    };
    cpSync(dir, join(stageDir, at), { recursive: true, dereference: true, filter: keep });
  }
  // The copy resolves what the checkout resolves, package by package.
  for (const [at, dir] of placed) {
    for (const { name } of dependencyNames(readJson(join(dir, 'package.json')))) {
      const source = resolvePackage(name, dir, root);
      if (!source) continue;
      const staged = resolvePackage(name, join(stageDir, at), stageDir);
      if (!staged || placed.get(relative(stageDir, staged)) !== source) {
        throw new Error(`in the package, ${at} would load ${name} from ${staged && relative(stageDir, staged)} instead of ${source}`);
      }
    }
  }
  const top = [...names, ...(alsoFrom?.names ?? [])];
  return Object.fromEntries(top.map((name) => [name, readJson(join(stageDir, 'node_modules', name, 'package.json')).version]));
}
