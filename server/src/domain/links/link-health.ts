import { request } from 'undici';
import type { LinkHealth } from '@hop/shared';
import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { checkUrl } from '../net/safe-fetch.js';
import { pinnedAgent } from '../net/pinned-agent.js';

export const MAX_HEALTH_REDIRECTS = 5;
type Verdict = Omit<LinkHealth, 'checkedAt'>;

export interface LinkHealthOptions {
  db: Database;
  clock: Clock;
  /** HOP_ALLOW_PRIVATE_URLS: without it a private destination is unreachable, and nothing is sent. */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** Between two requests to the same host during a sweep: the job is a polite visitor. */
  hostSpacingMs?: number;
  /** Resolver, for tests. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/**
 * Destination health (HEAD, else GET; at most 5 redirects followed, each hop under the address
 * rules): `ok` when it answers 2xx, `redirect` when it gets there through redirects (the link
 * could point at the final address), `broken` on a 4xx/5xx or a redirect chain too long,
 * `unreachable` when nothing answers or the address may not be contacted.
 */
export function createLinkHealth(opts: LinkHealthOptions) {
  const { db, clock } = opts;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const hostSpacingMs = opts.hostSpacingMs ?? 1_000;

  /** One request; null when nothing answered (or the address rules refused it: then none was sent). */
  async function ask(url: string, method: 'HEAD' | 'GET'): Promise<{ status: number; location: string | null } | null> {
    let target;
    try {
      target = await checkUrl(url, { allowPrivate: opts.allowPrivate, allowHttp: true, field: 'url', resolve: opts.resolve });
    } catch {
      return null;
    }
    const agent = pinnedAgent(target.address, timeoutMs);
    try {
      const res = await request(target.url, {
        method, dispatcher: agent, signal: AbortSignal.timeout(timeoutMs),
        headers: { 'user-agent': 'hop-link-check/1 (destination health)', accept: '*/*' },
      });
      // The status is all a check needs: past 64 KiB the connection is dropped rather than read.
      await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      const location = res.headers.location;
      return { status: res.statusCode, location: (Array.isArray(location) ? location[0] : location) ?? null };
    } catch {
      return null;
    } finally {
      void agent.close().catch(() => {});
    }
  }

  async function checkUrlHealth(url: string): Promise<Verdict> {
    let current = url;
    let firstRedirect: number | null = null;
    for (let hops = 0; ; hops++) {
      // Some servers refuse or mishandle HEAD: a GET has the last word.
      let res = await ask(current, 'HEAD');
      if (!res || res.status >= 400) res = (await ask(current, 'GET')) ?? res;
      if (!res) return { status: 'unreachable', statusCode: null };
      if (res.status >= 300 && res.status < 400 && res.location) {
        firstRedirect ??= res.status;
        if (hops >= MAX_HEALTH_REDIRECTS) return { status: 'broken', statusCode: res.status };
        try {
          current = new URL(res.location, current).href;
        } catch {
          return { status: 'broken', statusCode: res.status };
        }
        continue;
      }
      if (res.status >= 400) return { status: 'broken', statusCode: res.status };
      return firstRedirect === null ? { status: 'ok', statusCode: res.status } : { status: 'redirect', statusCode: firstRedirect };
    }
  }

  async function store(linkId: string, verdict: Verdict): Promise<LinkHealth> {
    const health: LinkHealth = { ...verdict, checkedAt: clock.now().toISOString() };
    // Only health changes: no event and no cache invalidation (the redirector never reads it).
    await db.query('update links set health = $2::text::jsonb where id = $1', [linkId, JSON.stringify(health)]);
    return health;
  }

  return {
    checkUrlHealth,

    /** `POST .../check`: checks one link's destination now and stores the result. */
    async checkLink(workspaceId: string, linkId: string): Promise<LinkHealth> {
      const [row] = await db.query<{ url: string }>('select url from links where id = $1 and workspace_id = $2', [linkId, workspaceId]);
      if (!row) throw notFound('link');
      return store(linkId, await checkUrlHealth(row.url));
    },

    /**
     * The sweep: links not checked within `staleMs` (oldest first, at most `limit`), each host's
     * links one after another with `hostSpacingMs` between them, a few hosts at a time.
     */
    async checkStale(staleMs: number, limit = 1000, hostsAtOnce = 4): Promise<{ checked: number; broken: number }> {
      const rows = await db.query<{ id: string; url: string }>(
        `select id, url from links
         where (health is null or (health->>'checkedAt')::timestamptz < $1)
           and (expires_at is null or expires_at > $2)
         order by (health->>'checkedAt') nulls first, id limit $3`,
        [new Date(clock.now().getTime() - staleMs), clock.now(), limit],
      );
      const byHost = new Map<string, { id: string; url: string }[]>();
      for (const r of rows) {
        const host = new URL(r.url).host.toLowerCase();
        byHost.set(host, [...(byHost.get(host) ?? []), r]);
      }
      const queues = [...byHost.values()];
      let broken = 0;
      const worker = async () => {
        for (let queue = queues.shift(); queue; queue = queues.shift()) {
          for (const [i, r] of queue.entries()) {
            if (i > 0) await new Promise((resolve) => setTimeout(resolve, hostSpacingMs));
            if ((await store(r.id, await checkUrlHealth(r.url))).status === 'broken') broken++;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(hostsAtOnce, queues.length) }, worker));
      return { checked: rows.length, broken };
    },
  };
}

export type LinkHealthService = ReturnType<typeof createLinkHealth>;
