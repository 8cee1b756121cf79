// Stages the `hop-server` package: the compiled server with the contracts beside it, its SQL
// migrations, the dashboard's built assets, the launcher, and every package the server runs on,
// copied from the workspace's install. The folders keep their checkout layout (server/dist,
// server/src/db/migrations, web/dist), which is where the server looks for them.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyDependencyClosure } from './dependency-closure.mjs';
import { PACKAGE_NAMES } from './names.mjs';
import { stageWithContracts } from './vendor-contracts.mjs';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

export async function stageServer({ root, stageDir }) {
  const server = readJson(join(root, 'server', 'package.json'));
  const workspace = readJson(join(root, 'package.json'));
  await stageWithContracts({ root, stageDir, dir: join('server', 'dist') });
  cpSync(join(root, 'server', 'src', 'db', 'migrations'), join(stageDir, 'server', 'src', 'db', 'migrations'), { recursive: true });
  cpSync(join(root, 'web', 'dist'), join(stageDir, 'web', 'dist'), { recursive: true });
  cpSync(join(root, 'bin', 'hop-server'), join(stageDir, 'bin', 'hop-server'));
  // The server reads its version from server/package.json, beside dist/ (server/src/version.ts).
  writeFileSync(join(stageDir, 'server', 'package.json'), `${JSON.stringify({ name: server.name, version: server.version, private: true, type: 'module' }, null, 2)}\n`);
  const dependencies = Object.fromEntries(Object.entries(server.dependencies).filter(([name]) => !name.startsWith('@hop/')));
  copyDependencyClosure({ root, fromDir: join(root, 'server'), names: Object.keys(dependencies), stageDir });
  const pkg = {
    name: PACKAGE_NAMES.server,
    version: server.version,
    description: 'The Hop server: the API, the redirector, webhooks and the dashboard of Hop, the CLI-first link shortener',
    license: server.license,
    type: 'module',
    engines: workspace.engines,
    bin: { 'hop-server': 'bin/hop-server' },
    files: ['bin', 'server', 'shared', 'web'],
    dependencies,
    // Native and data packages included (sharp's libvips, PGlite's WebAssembly, the country
    // database) as installed here: the package is built for the platform it is packed on.
    bundleDependencies: Object.keys(dependencies),
  };
  writeFileSync(join(stageDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}
