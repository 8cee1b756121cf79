import type { Queryable } from '../../db/database.js';
import type { RecordedClick } from '../clicks/click-pipeline.js';
import type { EventInterest } from './event-interest.js';
import type { EventOutbox, NewEvent } from './event-outbox.js';

/** link.clicked (or qr.scanned for scans) for each recorded visit, bots included with isBot. */
export function createClickEvents(deps: { outbox: EventOutbox; interest: EventInterest }) {
  return async function emitClickEvents(tx: Queryable, clicks: RecordedClick[]): Promise<void> {
    const events: NewEvent[] = [];
    for (const c of clicks) {
      const type = c.source === 'qr' ? 'qr.scanned' : 'link.clicked';
      if (!(await deps.interest.wants(c.workspaceId, type, tx))) continue;
      events.push({
        workspaceId: c.workspaceId,
        type,
        at: c.at,
        data: {
          linkId: c.linkId, slug: c.slug, destination: c.destination, domain: c.domain, clickedAt: c.at.toISOString(),
          country: c.country, city: c.city, device: c.device, browser: c.browser, os: c.os, referrer: c.referrer,
          isBot: c.isBot, target: c.target, ...(c.qrId ? { qrId: c.qrId } : {}),
        },
      });
    }
    await deps.outbox.emitMany(tx, events);
  };
}
