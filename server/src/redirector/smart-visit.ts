import type { IncomingHttpHeaders } from 'node:http';
import type { RedirectLink } from '../domain/links/redirect-links.js';
import { chooseTarget, primaryLanguage, type TargetChoice, type VisitorFacts } from '../domain/links/smart-target.js';
import { countryFromHeader, describeAgent, type GeoLookup } from '../domain/clicks/visit-details.js';
import type { VisitorSalts } from '../domain/clicks/visitor-salts.js';
import { memoizeByString } from '../domain/memo.js';

/**
 * Link-preview crawlers by family (Slack, X, Facebook, LinkedIn, Discord, WhatsApp, Telegram,
 * iMessage, which announces itself as `facebookexternalhit ... Twitterbot`) and a few more that
 * unfurl links the same way. Search engines are not among them: they follow the redirect.
 */
const PREVIEW_CRAWLER = new RegExp(
  [
    'Slackbot', 'Slack-ImgProxy', 'Twitterbot', 'facebookexternalhit', 'Facebot', 'LinkedInBot', 'Discordbot',
    'WhatsApp/', 'TelegramBot', 'SkypeUriPreview', 'Pinterestbot', 'redditbot', 'Embedly', 'Iframely', 'Mastodon/',
    'vkShare', 'Viber',
  ].map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
  'i',
);

export const isPreviewCrawler = memoizeByString((userAgent: string) => PREVIEW_CRAWLER.test(userAgent));

export type SmartChoice = TargetChoice & { facts: VisitorFacts };

const lowerOrNull = (s: string | null) => (s ? s.toLowerCase() : null);

/** Device, OS and browser as rules compare them (lower-cased), worked out once per user agent. */
const agentFacts = memoizeByString((userAgent: string) => {
  const agent = describeAgent(userAgent);
  return { device: agent.device, os: lowerOrNull(agent.os), browser: lowerOrNull(agent.browser) };
});

/**
 * The visitor facts a link's rules read, taken from the request (only those the link needs: a
 * plain-rule link never looks up the country or hashes the visitor), then the shared choice.
 */
export function createSmartVisits(deps: { geo: GeoLookup; geoHeader?: string; salts: VisitorSalts }) {
  const { geo, geoHeader, salts } = deps;

  function factsOf(link: RedirectLink, salt: string, ip: string, headers: IncomingHttpHeaders): VisitorFacts {
    const needs = link.smart!.needs;
    const ua = headers['user-agent'] ?? '';
    const agent = needs.agent ? agentFacts(ua) : null;
    return {
      country: needs.country ? (geoHeader ? countryFromHeader(headers[geoHeader]) : geo.country(ip)) : null,
      device: agent ? agent.device : null,
      os: agent ? agent.os : null,
      browser: agent ? agent.browser : null,
      language: needs.language ? primaryLanguage(headers['accept-language']) : null,
      // The same hash the click is stored under: sticky for the day, without a cookie.
      visitor: needs.visitor ? salts.visitorHashWith(salt, ip, ua) : null,
    };
  }

  return {
    /**
     * Where this visit goes, with the facts read to decide it (the visit's record reuses the
     * visitor hash and country rather than work them out again); null for a plain link (its url,
     * target `default`).
     */
    choose(link: RedirectLink, salt: string, ip: string, headers: IncomingHttpHeaders, now: number): SmartChoice | null {
      if (!link.smart) return null;
      const facts = factsOf(link, salt, ip, headers);
      const choice = chooseTarget(link, link.smart, facts, now, false) as SmartChoice;
      choice.facts = facts;
      return choice;
    },
    /** A crawler asking for a link with a preview: it gets the preview page, not the redirect. */
    wantsPreview(link: RedirectLink, headers: IncomingHttpHeaders): boolean {
      return Boolean(link.smart?.preview) && isPreviewCrawler(headers['user-agent'] ?? '');
    },
  };
}

export type SmartVisits = ReturnType<typeof createSmartVisits>;
