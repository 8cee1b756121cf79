import type { LinkResolution, ResolveLinkQuery } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { describeAgent } from '../clicks/visit-details.js';
import type { VisitorSalts } from '../clicks/visitor-salts.js';
import { LINK_CLICKS_SQL, servableRow } from './link-row.js';
import { chooseTarget, compileSmart, primaryLanguage, type SmartFields, type VisitorFacts } from './smart-target.js';

type Row = SmartFields & {
  id: string; url: string; expires_at: Date | null; expired_url: string | null; max_clicks: number | null;
  clicks: number; password_hash: string | null;
};

/**
 * `resolve`: where a described visitor would go and why, by the same choice the redirector makes.
 * Nothing is recorded. Device, OS and browser come from `ua` unless named; `ip` (never stored)
 * picks the A/B variant that visitor gets today, as the redirector would.
 */
export function createLinkResolver(deps: { db: Queryable; clock: Clock; salts: VisitorSalts }) {
  const { db, clock, salts } = deps;

  async function factsOf(q: ResolveLinkQuery): Promise<VisitorFacts> {
    const ua = q.ua ?? '';
    const agent = q.ua ? describeAgent(ua) : null;
    return {
      country: q.country?.toUpperCase() ?? null,
      device: q.device ?? agent?.device ?? null,
      os: (q.os ?? agent?.os)?.toLowerCase() ?? null,
      browser: (q.browser ?? agent?.browser)?.toLowerCase() ?? null,
      language: primaryLanguage(q.language),
      visitor: q.ip ? salts.visitorHashWith(await salts.today(), q.ip, ua) : ua,
    };
  }

  return {
    async resolve(workspaceId: string, linkId: string, q: ResolveLinkQuery): Promise<LinkResolution> {
      const [row] = await db.query<Row>(
        `select id, url, expires_at, expired_url, max_clicks, ${LINK_CLICKS_SQL} as clicks, password_hash, rules, variants, ios, android, preview
         from links where id = $1 and workspace_id = $2`,
        [linkId, workspaceId],
      );
      if (!row) throw notFound('link');
      const at = q.at ? new Date(q.at) : clock.now();
      const verdict = servableRow(row, at);
      if (verdict === 'expired' || verdict === 'limit_reached') {
        const why = verdict === 'expired' ? 'the link has expired' : 'the link has reached its click limit';
        return row.expired_url
          ? { url: row.expired_url, target: 'default', reason: `${why}: visitors go to its expiredUrl` }
          : { url: null, target: 'default', reason: `${why}: visitors get a 410 page` };
      }
      const choice = chooseTarget(row, compileSmart(row), await factsOf(q), at.getTime());
      return verdict === 'locked' ? { ...choice, reason: `once the password is given: ${choice.reason}` } : choice;
    },
  };
}

export type LinkResolver = ReturnType<typeof createLinkResolver>;
