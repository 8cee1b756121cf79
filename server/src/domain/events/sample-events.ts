import type { EventType } from '@hop/shared';

/** Sample `data` for each event type, sent by the `test` endpoint (marked `"test": true`). */
export function sampleEventData(type: EventType, shortDomain: string, scheme: string): Record<string, unknown> {
  const now = new Date().toISOString();
  const link = {
    id: 'lnk_0000000000000000test', slug: 'example', domain: shortDomain, url: 'https://example.com/',
    shortUrl: `${scheme}://${shortDomain}/example`, title: 'An example link', description: null, tags: [],
    expiresAt: null, expiredUrl: null, maxClicks: null, passwordProtected: false, clicks: 0, status: 'active',
    rules: null, variants: null, ios: null, android: null, preview: null, health: null,
    createdBy: null, createdAt: now, updatedAt: now,
  };
  const click = {
    linkId: link.id, slug: link.slug, destination: link.url, domain: shortDomain, clickedAt: now, country: 'US',
    city: null, device: 'desktop', browser: 'Chrome', os: 'Linux', referrer: 'example.org', isBot: false,
  };
  switch (type) {
    case 'link.created':
    case 'link.deleted':
      return { link };
    case 'link.updated':
      return { link, changes: ['url'] };
    case 'link.expired':
      return {
        link: { id: link.id, slug: link.slug, url: link.url, title: link.title, domain: shortDomain, expiresAt: now },
        expiredAt: now,
      };
    case 'link.clicked':
      return click;
    case 'qr.scanned':
      return { ...click, qrId: 'qr_0000000000000000test' };
  }
}
