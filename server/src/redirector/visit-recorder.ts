import type { IncomingHttpHeaders } from 'node:http';
import type { RedirectLink } from '../domain/links/redirect-links.js';
import type { ClickPipeline } from '../domain/clicks/click-pipeline.js';
import type { VisitorSalts } from '../domain/clicks/visitor-salts.js';
import { agentOf, countryFromHeader, referrerDomainOf, type Agent, type GeoLookup } from '../domain/clicks/visit-details.js';
import type { Clock } from '../domain/clock.js';
import type { VisitorFacts } from '../domain/links/smart-target.js';

export interface VisitSource {
  source: 'link' | 'qr';
  qrId: string | null;
}

/** What the redirector knows of a visit it answered: the request's parts the record needs. */
export interface AnsweredVisit {
  /** Today's visitor salt, already loaded. */
  salt: string;
  link: RedirectLink;
  from: VisitSource;
  ip: string;
  headers: IncomingHttpHeaders;
  isBot: boolean;
  /** The user agent's parse when the redirect already looked it up (agentOf), not to look up again. */
  agent?: Agent;
  /** The redirect already counted it (links with a click limit). */
  counted: boolean;
  /** Which destination served it (`default` unless a smart link chose another). */
  target?: string;
  /** Where the visitor was sent; the link's URL unless a smart link chose another. */
  destination?: string;
  /** What a smart link's choice already worked out of this visitor, not to be worked out again. */
  facts?: Pick<VisitorFacts, 'visitor' | 'country'>;
  /** When it was answered; the clock's time unless given (the redirect's own reading: one Date a visit, not two). */
  at?: Date;
}

/**
 * The "record" step of a visit: hashes the visitor with the day's salt, finds the country, device,
 * browser, OS and referrer domain, and hands the visit to the click pipeline. Nothing here waits,
 * and the visit keeps neither the IP nor the headers (user agents and referrer origins are
 * remembered, bounded, only to parse them once).
 */
export function createVisitRecorder(deps: { clicks: ClickPipeline; salts: VisitorSalts; geo: GeoLookup; geoHeader?: string; clock: Clock }) {
  const { clicks, salts, geo, geoHeader, clock } = deps;
  return {
    enqueue(v: AnsweredVisit) {
      const { link, headers, ip } = v;
      const userAgent = headers['user-agent'] ?? '';
      const agent = v.agent ?? agentOf(userAgent);
      clicks.enqueue({
        linkId: link.id,
        slug: link.slug,
        domain: link.domain,
        destination: v.destination ?? link.url,
        target: v.target ?? 'default',
        workspaceId: link.workspaceId,
        qrId: v.from.qrId,
        source: v.from.source,
        at: v.at ?? clock.now(),
        visitorHash: v.facts?.visitor ?? salts.visitorHashWith(v.salt, ip, userAgent),
        country: v.facts?.country ?? (geoHeader ? countryFromHeader(headers[geoHeader]) : geo.country(ip)),
        city: null,
        device: agent.device,
        browser: agent.browser,
        os: agent.os,
        referrer: referrerDomainOf(headers.referer ?? ''),
        isBot: v.isBot,
        counted: v.counted,
      });
    },
  };
}

export type VisitRecorder = ReturnType<typeof createVisitRecorder>;
