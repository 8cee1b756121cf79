// No test or benchmark sends a packet off this machine: this check reads every test and bench
// file and fails on a public address or host name written as a URL, or a public IPv4 address.
//
// Allowed, because nothing ever connects to them:
// - loopback and other non-public addresses (judged by ipaddr.js, as the server's address rules);
// - `localhost`, `*.localhost` and the names reserved for tests and documentation (RFC 2606,
//   RFC 6761): `*.test`, `*.example`, `*.invalid`, example.com/.net/.org. The server never
//   looks these up (server/src/domain/net/safe-fetch.ts), so they can be stored as destinations
//   and refused as webhook targets without a DNS query;
// - data a visitor sends, on a line that says so: Referer values and User-Agent strings
//   (`referer`, `referrer`, `bot.html`, `BROWSER_UA`, `user-agent`), and visitor addresses (`ip`,
//   `x-forwarded-for`, `visit...`), which the server records but never contacts; SVG's xmlns;
// - a line carrying the comment `no-egress-check: <why>`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
import { checkAddress } from '../../server/src/domain/net/address-rules.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const self = relative(root, fileURLToPath(import.meta.url));

const URL_HOST = /\b(?:https?|wss?|smtps?|postgres(?:ql)?|rediss?|ftp):\/\/(?:[^\s'"`/@]*@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)/g;
const IPV4 = /(?<![\d./])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])/g;
const RESERVED_NAME = /(^|\.)(localhost|test|example|invalid|example\.com|example\.net|example\.org)\.*$/i;
const VISITOR_DATA = /referr?er|bot\.html|\bip\b|x-forwarded-for|\bvisit|BROWSER_UA|user-?agent|xmlns="http:\/\/www\.w3\.org\//i;

/** Public: what the server's own address rules would let a request reach. */
function isPublicAddress(text: string): boolean {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(bare) && checkAddress(bare).allowed;
}

/** The public targets a line names (empty when it names none, or says why that is fine). */
export function publicTargets(line: string): string[] {
  if (line.includes('no-egress-check:') || VISITOR_DATA.test(line)) return [];
  const found: string[] = [];
  for (const [, host] of line.matchAll(URL_HOST)) {
    if (!host || /^[\d.]+$/.test(host) ? false : RESERVED_NAME.test(host)) continue;
    if (ipaddr.isValid(host.replace(/^\[(.*)\]$/, '$1')) || /^[\d.]+$/.test(host)) {
      if (isPublicAddress(host)) found.push(host);
    } else if (host.includes('.')) {
      found.push(host); // a real name: it could resolve off the machine
    }
  }
  for (const [, ip] of line.matchAll(IPV4)) if (ipaddr.IPv4.isValidFourPartDecimal(ip) && isPublicAddress(ip) && !found.includes(ip)) found.push(ip);
  return found;
}

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(name)) out.push(p);
  }
  return out;
}

test('the check itself tells targets from data', () => {
  // Public addresses for the check to find, assembled here so that this file names none itself.
  const v4 = ['93', '184', '216', '34'].join('.');
  const dns = ['8', '8', '8', '8'].join('.');
  const v6 = ['2606', '4700', '', '1111'].join(':');
  assert.deepEqual(publicTargets(`url: 'https://${v4}/catch/1'`), [v4]);
  assert.deepEqual(publicTargets(`targetUrl: 'https://hooks.zapier.com/x'`), ['hooks.zapier.com']);
  assert.deepEqual(publicTargets(`HOP_DNS_SERVERS: '${dns}'`), [dns]);
  assert.deepEqual(publicTargets(`fetch('http://[${v6}]/')`), [`[${v6}]`]);
  for (const fine of [
    `url: 'https://example.com/launch'`, `'https://hooks.example.test/x'`, `'http://no-such-host.invalid/logo.png'`,
    'url: `http://127.0.0.1:${port}/x`', `'https://[::1]/hook'`, `'https://10.0.0.1/logo.png'`, `'https://169.254.169.254/'`,
    `{ ip: '81.2.69.142', referer: 'https://t.co/xyz' }`, `'Mozilla/5.0 Chrome/126.0.0.0 Safari/537.36'`,
    `new URL(path, 'http://x/docs/')`, `'https://${dns}/' // no-egress-check: a resolver answer, refused before connecting`,
  ]) assert.deepEqual(publicTargets(fine), [], fine);
});

test('no test or benchmark names a public address or host as a target', () => {
  const scanned = [
    ...files(join(root, 'test')), ...files(join(root, 'bench')),
    ...['server/src', 'shared/src', 'cli/src', 'web/src'].flatMap((d) => files(join(root, d)).filter((f) => /\.test\.tsx?$/.test(f))),
  ].filter((f) => relative(root, f) !== self);
  assert.ok(scanned.length > 50, `scanned ${scanned.length} files`);
  const offenders: string[] = [];
  for (const file of scanned) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      for (const target of publicTargets(line)) offenders.push(`${relative(root, file)}:${i + 1}: ${target}`);
    });
  }
  assert.deepEqual(offenders, [], 'use a loopback receiver, a reserved name, or say why with `no-egress-check: <why>`');
});
