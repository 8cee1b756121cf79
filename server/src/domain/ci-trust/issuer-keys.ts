import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { OidcRefusal } from './oidc-refusal.js';

/** GETs a URL under the outbound address rules and answers its JSON (net/safe-fetch.ts). */
export type FetchJson = (url: string) => Promise<unknown>;

/** Keys are kept this long; an unknown `kid` refetches sooner, at most once per `REFETCH_AFTER_MS`. */
const KEYS_TTL_MS = 10 * 60_000;
const REFETCH_AFTER_MS = 30_000;

const DiscoverySchema = z.object({ issuer: z.string(), jwks_uri: z.string() });
const JwksSchema = z.object({ keys: z.array(z.object({ kty: z.string() }).passthrough()) });

interface KeptKeys {
  getKey: JWTVerifyGetKey;
  kids: Set<string>;
  fetchedAt: number;
}

/**
 * The signing keys of OIDC issuers: the discovery document (`/.well-known/openid-configuration`)
 * names the JWKS, both fetched under the outbound address rules and kept a while. A token signed
 * with a `kid` the kept set lacks refetches it (issuers rotate keys), but not more than twice a
 * minute per issuer, so random `kid`s cannot make the server fetch on every request.
 */
export function createIssuerKeys(deps: { fetchJson: FetchJson; now?: () => number }) {
  const { fetchJson } = deps;
  const now = deps.now ?? Date.now;
  const cache = new LRUCache<string, KeptKeys>({ max: 100 });
  const pending = new Map<string, Promise<KeptKeys>>();

  async function load(issuer: string): Promise<KeptKeys> {
    const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
    const discovery = DiscoverySchema.safeParse(await fetchOrRefuse(discoveryUrl, 'discovery'));
    if (!discovery.success) throw new OidcRefusal('discovery', `${discoveryUrl} is not an OpenID discovery document (no issuer or jwks_uri)`);
    if (discovery.data.issuer.replace(/\/+$/, '') !== issuer) {
      throw new OidcRefusal('discovery', `the discovery document names the issuer ${discovery.data.issuer}, not ${issuer}`);
    }
    const jwks = JwksSchema.safeParse(await fetchOrRefuse(discovery.data.jwks_uri, 'jwks'));
    if (!jwks.success) throw new OidcRefusal('jwks', `${discovery.data.jwks_uri} is not a JSON Web Key Set`);
    const set = jwks.data as unknown as JSONWebKeySet;
    const kids = new Set(set.keys.map((k) => k.kid).filter((k): k is string => typeof k === 'string'));
    const keys = { getKey: createLocalJWKSet(set), kids, fetchedAt: now() };
    cache.set(issuer, keys);
    return keys;
  }

  async function fetchOrRefuse(url: string, check: 'discovery' | 'jwks'): Promise<unknown> {
    try {
      return await fetchJson(url);
    } catch (err) {
      throw new OidcRefusal(check, `${url} could not be read: ${(err as Error).message}`);
    }
  }

  /** One fetch at a time per issuer: concurrent exchanges share it. */
  function refresh(issuer: string): Promise<KeptKeys> {
    let p = pending.get(issuer);
    if (!p) {
      p = load(issuer).finally(() => pending.delete(issuer));
      pending.set(issuer, p);
    }
    return p;
  }

  return {
    /** The key set to verify a token of `issuer` signed with `kid`. */
    async forToken(issuer: string, kid: string | undefined): Promise<JWTVerifyGetKey> {
      let keys = cache.get(issuer);
      const age = keys ? now() - keys.fetchedAt : Infinity;
      const unknownKid = keys && kid !== undefined && !keys.kids.has(kid);
      if (!keys || age > KEYS_TTL_MS || (unknownKid && age > REFETCH_AFTER_MS)) keys = await refresh(issuer);
      return keys.getKey;
    },
  };
}

export type IssuerKeys = ReturnType<typeof createIssuerKeys>;
