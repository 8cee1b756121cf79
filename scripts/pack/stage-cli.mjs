// Stages the `hop-cli` package: the bundled CLI, its command manifest (with the commands of the
// plugins it bundles), and the packages it loads from node_modules at run time, copied from the
// workspace's install.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_PLUGINS, bundleCli, pluginCommands } from './bundle-cli.mjs';
import { copyDependencyClosure } from './dependency-closure.mjs';
import { OCLIF_DEFERRED_PACKAGES } from './oclif-lazy-modules.mjs';
import { PACKAGE_NAMES } from './names.mjs';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

export async function stageCli({ root, stageDir }) {
  const cli = readJson(join(root, 'cli', 'package.json'));
  const workspace = readJson(join(root, 'package.json'));
  const manifest = readJson(join(root, 'cli', 'oclif.manifest.json'));
  for (const plugin of BUNDLED_PLUGINS) {
    for (const { id, command } of pluginCommands(root, plugin)) manifest.commands[id] = command;
  }
  const loaded = await bundleCli({ root, stageDir, commandIds: Object.keys(manifest.commands) });
  const runtime = copyDependencyClosure({
    root,
    fromDir: join(root, 'cli'),
    names: loaded,
    // The versions @oclif/core resolves, for its stand-ins to load (oclif-lazy-modules.mjs).
    alsoFrom: { dir: join(root, 'node_modules', '@oclif', 'core'), names: OCLIF_DEFERRED_PACKAGES },
    stageDir,
  });
  // In the order oclif would sort them at each start (it keeps this one: oclif-lazy-modules.mjs).
  manifest.commands = Object.fromEntries(Object.entries(manifest.commands).sort(([a], [b]) => a.localeCompare(b)));
  for (const command of Object.values(manifest.commands)) {
    command.pluginName = PACKAGE_NAMES.cli;
    command.pluginAlias = PACKAGE_NAMES.cli;
    command.pluginType = 'core';
    // Each command's file is CommonJS now, handing oclif the bundle's (bundle-cli.mjs).
    command.isESM = false;
  }
  writeFileSync(join(stageDir, 'oclif.manifest.json'), JSON.stringify(manifest));
  const pkg = {
    name: PACKAGE_NAMES.cli,
    version: cli.version,
    description: 'hop: the command line of Hop, the CLI-first link shortener',
    license: cli.license,
    // CommonJS: the bin compiles the bundle with a code cache, and oclif require()s each command.
    type: 'commonjs',
    engines: workspace.engines,
    bin: { hop: 'bin/hop.js' },
    files: ['bin', 'dist', 'oclif.manifest.json'],
    oclif: { ...cli.oclif, plugins: cli.oclif.plugins.filter((name) => !BUNDLED_PLUGINS.includes(name)) },
    dependencies: Object.fromEntries(Object.entries(runtime).map(([name, version]) => [name, cli.dependencies[name] ?? `^${version}`])),
    bundleDependencies: Object.keys(runtime),
  };
  writeFileSync(join(stageDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}
