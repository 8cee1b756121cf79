import type { ClickData, EventPayload, EventType, HopEvent, Link } from '@hop/shared';

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
    rules: null, variants: null, ios: null, android: null, preview: null, importedClicks: null, originalCreatedAt: null, health: null,
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
    case 'link.password_locked': {
      const { id, slug, domain } = link;
      return { type, data: { link: { id, slug, domain }, failures: 50, lockedUntil: new Date(now.getTime() + 600_000).toISOString() } };
    }
    case 'link.clicked':
      return { type, data: click };
    case 'qr.scanned':
      return { type, data: { ...click, qrId: 'qr_0000000000000000test' } };
    case 'ci.token_exchanged':
      return {
        type, data: {
          trustId: 'cit_0000000000000000test', issuer: 'https://token.actions.githubusercontent.com',
          subject: 'repo:acme/site:ref:refs/heads/main', repository: 'acme/site', ref: 'refs/heads/main', environment: null,
          workflow: '.github/workflows/links.yml', runId: '1234567890', scopes: ['links:read', 'links:write'],
          expiresAt: new Date(now.getTime() + 900_000).toISOString(),
        },
      };
  }
}

/** A whole sample event as a receiver gets it: a fresh id, this workspace, `"test": true`. */
export function sampleEnvelope(o: { type: EventType; workspaceId: string; eventId: string; shortDomain: string; scheme: string; now: Date }): HopEvent & { test: true } {
  const sample = sampleEvent(o.type, o.shortDomain, o.scheme, o.now);
  return { id: o.eventId, type: o.type, timestamp: o.now.toISOString(), workspaceId: o.workspaceId, data: sample.data, test: true } as HopEvent & { test: true };
}
