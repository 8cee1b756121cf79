// The settings the README's configuration table documents: every `NAME` in the first column of
// the table under "## Configuration" (a row may name several, as `PORT`, `HOST`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

export function readmeSettings(): Set<string> {
  const text = readFileSync(README, 'utf8');
  const section = /^## Configuration\n([\s\S]*?)(?=^## )/m.exec(text)?.[1];
  if (!section) throw new Error('README.md has no "## Configuration" section');
  const rows = section.split('\n').filter((line) => /^\|\s*`/.test(line));
  return new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])));
}
