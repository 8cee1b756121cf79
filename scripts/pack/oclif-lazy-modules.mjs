// An esbuild plugin for the CLI bundle: @oclif/core requires, at load, libraries that a run with a
// command manifest uses rarely or never (globbing for commands, help templates, spinners, a check of
// its own engine range, debug output). Bundled, those still cost a cold start their evaluation;
// here each becomes a stand-in that loads the real library, left out of the bundle and installed in
// the package's node_modules, on first use. Measured with node --cpu-prof, their evaluation was
// about a sixth of `hop --version` in the package, and they were some 140 KB of its main chunk.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const OCLIF_CORE_DIR = dirname(require.resolve('@oclif/core/package.json', { paths: [fileURLToPath(new URL('../../cli/', import.meta.url))] }));

/** Libraries @oclif/core only calls into after load (it never reads them at the top of a module); lilconfig only for a package.json without `oclif`. */
const DEFERRED = ['tinyglobby', 'minimatch', 'ejs', 'cli-spinners', 'semver', 'lilconfig'];

/**
 * Node's own modules @oclif/core requires at load and calls only in functions a run rarely reaches
 * (a prompt, a Windows shell probe, performance marks): each loads a tree of Node's internals.
 */
const DEFERRED_BUILTINS = ['node:child_process', 'node:readline', 'node:perf_hooks'];

/** What the stand-ins load from node_modules at run time, as @oclif/core resolves them. */
export const OCLIF_DEFERRED_PACKAGES = [...DEFERRED, 'debug', 'wsl-utils'];

const deferred = (name) => `
let real;
const load = () => (real ??= require(${JSON.stringify(name)}));
// Not an ES module: __importDefault wraps it as {default: <this>} without touching the library.
module.exports = new Proxy({}, {
  get: (_, key) => (key === '__esModule' ? undefined : load()[key]),
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => ({ ...Reflect.getOwnPropertyDescriptor(load(), key), configurable: true }),
});
`;

// oclif's logger only ever calls debug(namespace), then the function it returns; the library
// (and the terminal probing it does at load) is needed only when DEBUG asks for output.
const debugShim = `
let real;
module.exports = function createDebug(namespace) {
  if (process.env.DEBUG) return (real ??= require('debug'))(namespace);
  const off = () => {};
  off.enabled = false;
  off.namespace = namespace;
  off.extend = (sub, delimiter = ':') => createDebug(namespace + delimiter + sub);
  return off;
};
`;

// oclif imports wsl-utils at every start, for its \`isWsl\` (a few reads of /proc); the package's
// other export, a PowerShell path for Windows shells, loads child_process and powershell-utils.
// The stand-in answers isWsl from is-wsl itself and loads wsl-utils only when asked for the path.
const wslUtilsShim = `
export { default as isWsl } from 'is-wsl';
export const powerShellPath = async (...args) => (await import('wsl-utils')).powerShellPath(...args);
`;

// oclif reads its package.json and manifest through node:fs/promises, whose loading (with the
// readline, stream and watcher modules it requires) costs more than the two reads; a CLI waits for
// them anyway. The functions oclif calls, answered by node:fs's synchronous twins (the same
// results and errors); any other loads the real module.
const fsPromisesShim = `
const fs = require('node:fs');
const SYNC = { readFile: fs.readFileSync, stat: fs.statSync, lstat: fs.lstatSync, access: fs.accessSync, readdir: fs.readdirSync, realpath: fs.realpathSync };
let real;
module.exports = new Proxy({}, {
  get: (_, key) => {
    if (key === '__esModule') return undefined;
    if (Object.hasOwn(SYNC, key)) return async (...args) => SYNC[key](...args);
    return (real ??= require('node:fs/promises'))[key];
  },
});
`;

// oclif sorts the manifest's commands with localeCompare at every start, and the first
// localeCompare of a process builds ICU's collator: about a tenth of `hop --version`. The package's
// manifest lists its commands in that order already (stage-cli.mjs), so oclif keeps its order.
const PLUGIN_JS = /[\\/]node_modules[\\/]@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/;
const COMMAND_SORT = '.sort((a, b) => a.id.localeCompare(b.id));';

export const oclifLazyModules = {
  name: 'oclif-lazy-modules',
  setup(build) {
    build.onLoad({ filter: PLUGIN_JS }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(COMMAND_SORT)) throw new Error(`${args.path} no longer sorts commands as oclif-lazy-modules.mjs expects`);
      return { contents: source.replace(COMMAND_SORT, ';'), loader: 'js' };
    });
    const names = [...DEFERRED, ...DEFERRED_BUILTINS, 'debug', 'wsl-utils', 'node:fs/promises'];
    const filter = new RegExp(`^(${names.map((n) => n.replace(/[-/]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) => {
      if (args.namespace === 'oclif-lazy') return { path: args.path, external: true };
      if (!/[\\/]node_modules[\\/]@oclif[\\/]core[\\/]/.test(args.importer)) return undefined;
      return { path: args.path, namespace: 'oclif-lazy' };
    });
    build.onLoad({ filter: /.*/, namespace: 'oclif-lazy' }, (args) => {
      if (args.path === 'wsl-utils') {
        // is-wsl resolves from wsl-utils' own folder, where npm put its dependency.
        const resolveDir = dirname(require.resolve('wsl-utils', { paths: [OCLIF_CORE_DIR] }));
        return { contents: wslUtilsShim, loader: 'js', resolveDir };
      }
      if (args.path === 'node:fs/promises') return { contents: fsPromisesShim, loader: 'js' };
      return { contents: args.path === 'debug' ? debugShim : deferred(args.path), loader: 'js' };
    });
  },
};
