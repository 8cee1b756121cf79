// The CLI's surface (command ids, flags, arguments) is what scripts depend on: a change to it must
// show up as a diff of cli-commands.snapshot.json. `UPDATE_SNAPSHOTS=1 npm test` rewrites it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

const manifestPath = new URL('../../cli/oclif.manifest.json', import.meta.url);
const snapshotPath = new URL('./cli-commands.snapshot.json', import.meta.url);

interface ManifestFlag {
  type: 'boolean' | 'option';
  char?: string;
  multiple?: boolean;
  required?: boolean;
  env?: string;
  options?: string[];
  exclusive?: string[];
}
interface ManifestCommand {
  id: string;
  flags: Record<string, ManifestFlag>;
  args: Record<string, { required?: boolean }>;
}

/** One line per flag, e.g. `option -t multiple env=HOP_WORKSPACE`, so that a diff reads well. */
function flagSignature(f: ManifestFlag): string {
  return [
    f.type,
    f.char && `-${f.char}`,
    f.multiple && 'multiple',
    f.required && 'required',
    f.env && `env=${f.env}`,
    f.options && `options=${f.options.join('|')}`,
    f.exclusive?.length && `exclusive=${f.exclusive.join('|')}`,
  ].filter(Boolean).join(' ');
}

/** Only what a caller relies on; descriptions and help text may change freely. */
function surface(manifest: { commands: Record<string, ManifestCommand> }) {
  const sorted = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const commands = Object.values(manifest.commands).sort((a, b) => a.id.localeCompare(b.id));
  return Object.fromEntries(
    commands.map((c) => [
      c.id,
      {
        args: Object.entries(c.args).map(([name, a]) => (a.required ? `${name} required` : name)),
        flags: sorted(Object.fromEntries(Object.entries(c.flags).map(([name, f]) => [name, flagSignature(f)]))),
      },
    ]),
  );
}

test('the CLI commands, flags and arguments match the snapshot', () => {
  const actual = surface(JSON.parse(readFileSync(manifestPath, 'utf8')));
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    writeFileSync(snapshotPath, `${JSON.stringify(actual, null, 2)}\n`);
    return;
  }
  const expected = JSON.parse(readFileSync(snapshotPath, 'utf8'));
  assert.deepEqual(actual, expected, 'the CLI surface changed: if on purpose, run UPDATE_SNAPSHOTS=1 npm test and commit the snapshot');
});
