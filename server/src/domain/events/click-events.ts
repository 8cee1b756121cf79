import type { ClickData } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import type { RecordedClick } from '../clicks/click-pipeline.js';
import type { EventInterest } from './event-interest.js';
import type { EventOutbox, NewEvent } from './event-outbox.js';

/** The `data` of link.clicked (and, with the QR code's id, of qr.scanned) for one visit. */
export function clickData(c: RecordedClick): ClickData {
  return {
    linkId: c.linkId, slug: c.slug, destination: c.destination, domain: c.domain, clickedAt: c.at.toISOString(),
    country: c.country, city: c.city, device: c.device, browser: c.browser, os: c.os, referrer: c.referrer, isBot: c.isBot,
    target: c.target,
  };
}

/** link.clicked (or qr.scanned for scans) for each recorded visit, bots included with isBot. */
export function createClickEvents(deps: { outbox: EventOutbox; interest: EventInterest }) {
  return async function emitClickEvents(tx: Queryable, clicks: RecordedClick[]): Promise<void> {
    const events: NewEvent[] = [];
    const wants = await deps.interest.wanted(tx);
    for (const c of clicks) {
      const qrId = c.source === 'qr' ? c.qrId : null;
      if (!wants(c.workspaceId, qrId ? 'qr.scanned' : 'link.clicked')) continue;
      const base = { workspaceId: c.workspaceId, at: c.at };
      events.push(qrId
        ? { ...base, type: 'qr.scanned', data: { ...clickData(c), qrId } }
        : { ...base, type: 'link.clicked', data: clickData(c) });
    }
    await deps.outbox.emitMany(tx, events);
  };
}
