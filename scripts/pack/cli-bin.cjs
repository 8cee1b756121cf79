#!/usr/bin/env node
// hop: the published package's bin (scripts/pack/cli-bin.cjs in Hop's repository). The whole CLI is
// one CommonJS bundle, dist/hop.js; this compiles it with V8's code cache, kept in the user's cache
// directory, so that a start after the first neither parses nor compiles what it runs. Node 20 has
// no compile cache of its own, and an ES module cannot be given one. The cache is written after a
// run, with every function that run compiled, one for each command: what `hop links list` compiles
// is not what `hop login` does. Set NODE_DISABLE_COMPILE_CACHE to do without it, as with Node's.
'use strict';
const Module = require('node:module');
const { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

/** The bundle's SHA-256, written at pack time: V8 checks a cache against the source's length only. */
const BUNDLE_HASH = '%BUNDLE_HASH%';
/** The package's command ids (`links:list`), written at pack time. */
const COMMAND_IDS = '%COMMAND_IDS%'.split(' ');

// oclif checks Node against the engine range of its own package.json when it loads, a file the
// bundle does not carry; this package's range is npm's to check at install.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true';

/** hop's cache directory, as env-paths names it for the settings file's (~/.cache/hop on Linux). */
function cacheDir(env = process.env) {
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'hop', 'Cache', 'compile-cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'hop', 'compile-cache');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hop', 'compile-cache');
}

/** The command `argv` runs (`links-list`), as oclif finds it; `hop` for none (`--version`, a typo). */
function commandOf(argv) {
  const words = argv[0]?.includes(':') ? [...argv[0].split(':'), ...argv.slice(1)] : argv;
  let longest = [];
  for (const id of COMMAND_IDS) {
    const parts = id.split(':');
    if (parts.length > longest.length && parts.every((part, i) => words[i] === part)) longest = parts;
  }
  return longest.length ? longest.join('-') : 'hop';
}

/** Read, or undefined: a missing, unreadable or stale cache only costs a compile. */
function readCache(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Another hop's caches are dropped once unchanged this long: two hops in use (a global one and npx) keep theirs. */
const STALE_MS = 7 * 24 * 3600 * 1000;

/** Replaces the cache atomically and drops stale ones of other bundles (an older hop); failure is no error. */
function writeCache(dir, file, data) {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.bin') || name.startsWith(BUNDLE_HASH.slice(0, 16))) continue;
      if (Date.now() - statSync(join(dir, name)).mtimeMs > STALE_MS) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A read-only or full disk: the next start compiles again.
  }
}

const filename = join(__dirname, '..', 'dist', 'hop.js');
let dir = '';
try {
  if (!process.env.NODE_DISABLE_COMPILE_CACHE) dir = cacheDir();
} catch {
  // No home directory to be found: start without a cache.
}
const cacheFile = join(dir, `${BUNDLE_HASH.slice(0, 16)}-${process.version}-${process.arch}-${commandOf(process.argv.slice(2))}.bin`);
const cachedData = dir ? readCache(cacheFile) : undefined;
// The file is ASCII and already the module's function (see bundle-cli.mjs).
// No import() in it: a script compiled with cached data loses its dynamic-import callback on Node
// 20, so bundle-cli.mjs lowers every import() to require().
const script = new vm.Script(readFileSync(filename, 'latin1'), { filename, cachedData });
if (dir && (!cachedData || script.cachedDataRejected)) {
  // On exit, so the cache holds every function this run compiled, not only the top level.
  process.once('exit', () => writeCache(dir, cacheFile, script.createCachedData()));
}
// A module as Node's loader would make it, so the commands' files (dist/commands/**) that
// require('../hop.js') get this one.
const bundle = new Module(filename, module);
bundle.filename = filename;
bundle.paths = Module._nodeModulePaths(dirname(filename));
Module._cache[filename] = bundle;
script.runInThisContext()(bundle.exports, Module.createRequire(filename), bundle, filename, dirname(filename));
bundle.loaded = true;
bundle.exports.launch(pathToFileURL(join(__dirname, '..', 'package.json')));
