import type { IncomingHttpHeaders } from 'node:http';
import type { RedirectLink } from '../domain/links/redirect-links.js';
import type { ClickPipeline } from '../domain/clicks/click-pipeline.js';
import type { VisitorSalts } from '../domain/clicks/visitor-salts.js';
import { countryFromHeader, describeAgent, referrerDomainOf, type GeoLookup } from '../domain/clicks/visit-details.js';
import type { Clock } from '../domain/clock.js';
import type { TargetChoice } from '../domain/links/smart-target.js';

export interface VisitSource {
  source: 'link' | 'qr';
  qrId: string | null;
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
    /** `choice`: where a smart link sent the visitor (null: the link's url). */
    enqueue(salt: Buffer, link: RedirectLink, from: VisitSource, ip: string, headers: IncomingHttpHeaders, isBot: boolean, counted: boolean,
      choice: TargetChoice | null = null) {
      const userAgent = headers['user-agent'] ?? '';
      const agent = describeAgent(userAgent);
      clicks.enqueue({
        linkId: link.id,
        slug: link.slug,
        domain: link.domain,
        destination: choice ? choice.url : link.url,
        workspaceId: link.workspaceId,
        qrId: from.qrId,
        source: from.source,
        at: clock.now(),
        visitorHash: salts.visitorHashWith(salt, ip, userAgent),
        country: geoHeader ? countryFromHeader(headers[geoHeader]) : geo.country(ip),
        city: null,
        device: agent.device,
        browser: agent.browser,
        os: agent.os,
        referrer: referrerDomainOf(headers.referer ?? ''),
        isBot,
        counted,
      });
    },
  };
}

export type VisitRecorder = ReturnType<typeof createVisitRecorder>;
