import type { Clock } from '../domain/clock.js';
import type { EventOutbox } from '../domain/events/event-outbox.js';
import type { Job } from './schedule.js';

const BATCH = 500;

/**
 * Every 5 minutes: links past `expiresAt` get `link.expired` once per expiry, then are marked
 * expired, in one transaction, so the event is never lost nor sent twice (docs/api.md, Links).
 * Redirects enforce the expiry at request time on their own; this job only announces it.
 */
export function expiryJob(deps: { clock: Clock; outbox: EventOutbox }): Job {
  return {
    name: 'link-expiry',
    lockId: 72_410_103,
    async run(tx) {
      const now = deps.clock.now();
      let total = 0;
      for (;;) {
        const due = await tx.query<{ id: string; workspace_id: string; slug: string; url: string; title: string | null; domain: string; expires_at: Date }>(
          `select id, workspace_id, slug, url, title, domain, expires_at from links
           where expired_at is null and expires_at <= $1 order by expires_at limit ${BATCH} for update skip locked`,
          [now],
        );
        if (due.length === 0) return { expired: total };
        await deps.outbox.emitMany(tx, due.map((l) => ({
          workspaceId: l.workspace_id,
          type: 'link.expired' as const,
          at: now,
          data: {
            link: { id: l.id, slug: l.slug, url: l.url, title: l.title, domain: l.domain, expiresAt: l.expires_at.toISOString() },
            expiredAt: now.toISOString(),
          },
        })));
        await tx.query('update links set expired_at = $2 where id = any($1::text[])', [due.map((l) => l.id), now]);
        total += due.length;
      }
    },
  };
}
