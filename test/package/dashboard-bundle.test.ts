// The dashboard's first load, as built: the scripts index.html names (its entry and modulepreloads)
// hold no zod. A zod schema is built when its module loads, so a schema in those scripts is work
// done before any page renders; pages import the schemas they check from shared's modules one by
// one (`@hop/shared/links`), and a page's chunk brings them (web/vite.config.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../web/dist', import.meta.url));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstLoad = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
/** zod makes every schema class with `$constructor("$ZodType", ...)`: a string no minifier changes. */
const hasZod = (file: string) => /["'`]\$ZodType["'`]/.test(readFileSync(join(dist, file), 'utf8'));

test('the dashboard names its entry and modulepreloads in index.html', () => {
  assert.ok(firstLoad.length > 0, html);
});

test('the scripts of the dashboard\'s first load hold no zod', () => {
  const withZod = firstLoad.filter(hasZod);
  assert.deepEqual(withZod, [], `zod in the first load: ${withZod.join(', ')}`);
});

test('zod is in the bundle, in a chunk that loads later (so the check above can see it)', () => {
  const later = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`).filter((f) => !firstLoad.includes(f));
  assert.ok(later.some(hasZod), 'some chunk holds zod');
});
