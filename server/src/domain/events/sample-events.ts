import type { ClickData, EventPayload, EventType, Link } from '@hop/shared';

/**
 * A sample event of each type, sent by a webhook's `test` (marked `"test": true`): the same
 * shapes as real events (checked against the shared schemas by test/api/event-payloads.test.ts).
 */
export function sampleEvent(type: EventType, shortDomain: string, scheme: string, now: Date): EventPayload {
  const at = now.toISOString();
  const link: Link = {
    id: 'lnk_0000000000000000test', slug: 'example', domain: shortDomain, url: 'https://example.com/',
    shortUrl: `${scheme}://${shortDomain}/example`, title: 'An example link', description: null, tags: [],
    expiresAt: null, expiredUrl: null, maxClicks: null, passwordProtected: false, clicks: 0, status: 'active',
    createdBy: null, createdAt: at, updatedAt: at,
  };
  const click: ClickData = {
    linkId: link.id, slug: link.slug, destination: link.url, domain: shortDomain, clickedAt: at, country: 'US',
    city: null, device: 'desktop', browser: 'Chrome', os: 'Linux', referrer: 'example.org', isBot: false, target: 'default',
  };
  switch (type) {
    case 'link.created':
    case 'link.deleted':
      return { type, data: { link } };
    case 'link.updated':
      return { type, data: { link, changes: ['url'] } };
    case 'link.expired': {
      const { id, slug, url, title, domain } = link;
      return { type, data: { link: { id, slug, url, title, domain, expiresAt: at }, expiredAt: at } };
    }
    case 'link.clicked':
      return { type, data: click };
    case 'qr.scanned':
      return { type, data: { ...click, qrId: 'qr_0000000000000000test' } };
  }
}
