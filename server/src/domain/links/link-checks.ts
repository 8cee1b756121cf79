import type { CreateLinkBodySchema } from '@hop/shared';
import type { z } from 'zod';
import type { Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { validationError } from '../errors.js';
import { randomBase62 } from '../ids.js';
import { requireFeature } from '../plans/plan-gates.js';
import type { Actor } from '../auth/actor.js';
import { createOwnHostCheck } from './own-hosts.js';

type UpdateInput = Partial<z.output<typeof CreateLinkBodySchema>>;

/** What links need of custom domains (the domains service owns that table). */
export interface LinkDomains {
  isVerifiedIn(q: Queryable, workspaceId: string, name: string): Promise<boolean>;
  isVerifiedAnywhere(host: string): Promise<boolean>;
}

/** Tells whether a host is a Hop short domain; bulk creation asks once per host. */
export type LoopCheck = (host: string) => Promise<boolean>;

/**
 * What a link's fields must satisfy before it is written, whether created or updated: the plan
 * allows a password, no destination loops back to Hop, the expiry is ahead, the domain is the
 * workspace's. And, when a slug is taken, a free one to suggest.
 */
export function createLinkChecks(deps: {
  config: { shortDomain: string; ownHosts: string[]; dashboardUrl: string };
  clock: Clock;
  domains?: LinkDomains;
}) {
  const { config, clock } = deps;
  const isOwnHost = createOwnHostCheck(config.ownHosts);
  /** Whether a host is some workspace's verified short domain. */
  const isLoopHost: LoopCheck = async (hostname) => (await deps.domains?.isVerifiedAnywhere(hostname)) ?? false;

  async function checkDestination(field: string, url: string | null | undefined, loops: LoopCheck) {
    if (url == null) return;
    const parsed = new URL(url);
    if (isOwnHost(parsed) || (await loops(parsed.hostname.toLowerCase().replace(/\.+$/, '')))) {
      throw validationError(field, 'may not point at a Hop short domain (it would loop)');
    }
  }

  return {
    isLoopHost,

    /** The checks that read no row of the link; they run before its transaction. */
    async fields(actor: Actor, body: UpdateInput, loops: LoopCheck = isLoopHost) {
      // A field that needs a plan: the route cannot declare it, since only this body asks for it.
      if (body.password) requireFeature('password_protection', actor, config.dashboardUrl);
      await checkDestination('url', body.url, loops);
      await checkDestination('expiredUrl', body.expiredUrl, loops);
      // Rule, variant and app-link destinations may not loop back to Hop either.
      for (const [i, r] of (body.rules ?? []).entries()) await checkDestination(`rules.${i}.url`, r.url, loops);
      for (const [i, v] of (body.variants ?? []).entries()) await checkDestination(`variants.${i}.url`, v.url, loops);
      for (const field of ['ios', 'android'] as const) {
        const url = body[field];
        if (url && /^https?:/i.test(url)) await checkDestination(field, url, loops);
      }
      if (body.expiresAt && new Date(body.expiresAt).getTime() <= clock.now().getTime()) {
        throw validationError('expiresAt', 'must be in the future');
      }
    },

    /** The default short domain, or a verified domain of the actor's workspace (docs/api.md, Links). */
    async domain(q: Queryable, workspaceId: string, domain: string | undefined): Promise<string> {
      const d = (domain ?? config.shortDomain).trim().toLowerCase();
      if (d === config.shortDomain) return d;
      if (!(await deps.domains?.isVerifiedIn(q, workspaceId, d))) throw validationError('domain', 'is not a verified domain of this workspace');
      return d;
    },

    /** A free slug like a taken one, for the error's `suggestion`. */
    async suggestSlug(q: Queryable, domain: string, slug: string): Promise<string> {
      const base = slug.slice(0, 58);
      const candidates = [...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`), `${base}-${randomBase62(4)}`];
      const taken = new Set(
        (await q.query<{ slug: string }>('select slug from links where domain = $1 and slug = any($2::text[])', [domain, candidates])).map((r) => r.slug),
      );
      return candidates.find((c) => !taken.has(c)) ?? `${base}-${randomBase62(6)}`;
    },
  };
}
