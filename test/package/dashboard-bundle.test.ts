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

/** A chunk and every chunk it imports statically, transitively: what runs before its page renders. */
function staticGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  // Static imports (`import{a as b}from"./x.js"`, `import"./x.js"`); a lazy `import("./x.js")` has a parenthesis.
  for (const m of readFileSync(join(dist, file), 'utf8').matchAll(/\bimport\s*(?:[^"'`()]*?\bfrom\s*)?["'`]\.\/([^"'`]+\.js)["'`]/g)) staticGraph(`assets/${m[1]}`, seen);
  return seen;
}

// The sign-in, links and link pages check nothing when they open: CSV import and bulk tagging are
// chunks of their own, loaded when opened or shown, and the sign-in form and the link form (rendered
// on the link page after the rest) load their check with its schema when first focused or sent.
for (const name of ['login', 'links-list', 'link-detail', 'link-form']) {
  test(`the ${name} chunk and what it imports hold no zod`, () => {
    const chunk = readdirSync(join(dist, 'assets')).find((f) => f.startsWith(`${name}-`) && f.endsWith('.js'));
    assert.ok(chunk, `a ${name} chunk is built`);
    const withZod = [...staticGraph(`assets/${chunk}`)].filter(hasZod);
    assert.deepEqual(withZod, [], `zod loads with the ${name} chunk: ${withZod.join(', ')}`);
  });
}
