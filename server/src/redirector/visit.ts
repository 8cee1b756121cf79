import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RedirectLink, RedirectLinks } from '../domain/links/redirect-links.js';
import type { ClickPipeline } from '../domain/clicks/click-pipeline.js';
import type { VisitorSalts } from '../domain/clicks/visitor-salts.js';
import { isBotAgent, type GeoLookup } from '../domain/clicks/visit-details.js';
import type { PasswordAttempts } from '../domain/links/password-attempts.js';
import { verifyPassword } from '../domain/passwords.js';
import { servable, type Servability } from '../domain/links/servable.js';
import type { Clock } from '../domain/clock.js';
import { addressKey } from '../domain/net/address-key.js';
import type { LinkCache } from './link-cache.js';
import { unlockCookieName, UNLOCK_TTL_SECONDS, type UnlockCookies } from './password-gate.js';
import { sendLimitedLinkNotice, sendLockedOut, sendPasswordForm, sendVisitError } from './pages.js';
import { createVisitRecorder, type VisitSource } from './visit-recorder.js';
import type { SmartVisits } from './smart-visit.js';
import { previewPage } from './preview-page.js';
import { LookupTimeoutError } from '../domain/links/link-lookups.js';

export type { VisitSource } from './visit-recorder.js';

export interface RedirectorDeps {
  cache: LinkCache;
  links: Pick<RedirectLinks, 'consumeLimitedClick' | 'limitReached'>;
  clicks: ClickPipeline;
  salts: VisitorSalts;
  geo: GeoLookup;
  attempts: PasswordAttempts;
  cookies: UnlockCookies;
  clock: Clock;
  geoHeader?: string;
  secureCookies: boolean;
  smart: SmartVisits;
}

export const SLUG_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** A visit's query passes at most this many parameters on to the destination. */
const MAX_VISIT_PARAMS = 100;

/** Appends the visit's query to the destination without overriding what the destination has. */
export function withVisitQuery(destination: string, rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  if (q < 0 || q === rawUrl.length - 1) return destination;
  const u = new URL(destination);
  // Built once, not through searchParams.append (which re-serialises the whole query each time:
  // quadratic, so one visit with thousands of parameters could hold up the server).
  const present = new Set(u.searchParams.keys());
  const added = new URLSearchParams();
  let seen = 0;
  for (const [k, v] of new URLSearchParams(rawUrl.slice(q + 1))) {
    if (++seen > MAX_VISIT_PARAMS) break;
    if (present.has(k)) continue;
    present.add(k);
    added.append(k, v);
  }
  const extra = added.toString();
  if (!extra) return u.toString();
  u.search = u.search.length > 1 ? `${u.search.slice(1)}&${extra}` : extra;
  return u.toString();
}

/** Headers of every redirect: destinations change, so neither browsers nor proxies may keep it. */
export const REDIRECT_HEADERS = { 'cache-control': 'private, no-store', 'referrer-policy': 'no-referrer-when-downgrade' } as const;

const NOT_PLAIN_ASCII = /[^\x21-\x7e]/;

/**
 * The Location header for a destination: as stored when it is plain ASCII (nearly always), else
 * the URL's serialisation (punycode host, percent-encoded path), since a header cannot carry
 * other characters and Node would refuse to send it.
 */
export function locationFor(destination: string): string {
  return NOT_PLAIN_ASCII.test(destination) ? new URL(destination).href : destination;
}

function redirect(reply: FastifyReply, location: string) {
  return reply.code(302).header('location', locationFor(location)).headers(REDIRECT_HEADERS).send();
}

/** The redirector's path: resolve → respond → record (the record only enqueues). */
export function createRedirector(deps: RedirectorDeps) {
  const { cache, links, salts, attempts, cookies, clock } = deps;
  const recorder = createVisitRecorder(deps);

  function gone(req: FastifyRequest, reply: FastifyReply, link: RedirectLink, why: 'expired' | 'limit_reached') {
    if (link.expiredUrl) return redirect(reply, link.expiredUrl);
    return sendVisitError(req, reply, 'GONE', 'Link no longer available',
      why === 'expired' ? 'This short link has expired.' : 'This short link has reached its click limit.');
  }

  async function record(req: FastifyRequest, link: RedirectLink, from: VisitSource, isBot: boolean, counted: boolean) {
    recorder.enqueue({ salt: await salts.today(), link, from, ip: req.ip, headers: req.headers, isBot, counted });
  }

  /** A link-preview crawler: the card, no redirect (and, as a bot, no click counted). */
  async function preview(req: FastifyRequest, reply: FastifyReply, link: RedirectLink, from: VisitSource) {
    if (req.method !== 'HEAD') await record(req, link, from, true, false);
    return reply.code(200).header('cache-control', 'private, no-store').type('text/html; charset=utf-8')
      .send(previewPage(link.smart!.preview!, `${req.protocol}://${link.domain}/${link.slug}`));
  }

  /**
   * Serves a link that is known, live and (if protected) unlocked: count, record, redirect. A
   * `limited` link takes one click from its counter first; bots and HEAD requests use up no
   * click, so they get a page without the destination instead (docs/security.md).
   */
  async function pass(req: FastifyRequest, reply: FastifyReply, link: RedirectLink, from: VisitSource, verdict: Servability) {
    const isBot = isBotAgent(req.headers['user-agent'] ?? '');
    const counts = req.method !== 'HEAD';
    if (deps.smart.wantsPreview(link, req.headers)) return preview(req, reply, link, from);
    let counted = false;
    if (verdict === 'limited') {
      if (!isBot && counts) {
        if (!(await links.consumeLimitedClick(link.id))) return gone(req, reply, link, 'limit_reached');
        counted = true;
      } else {
        if (await links.limitReached(link.id)) return gone(req, reply, link, 'limit_reached');
        if (counts) await record(req, link, from, isBot, false);
        return sendLimitedLinkNotice(reply);
      }
    }
    const salt = await salts.today();
    const at = clock.now();
    const choice = deps.smart.choose(link, salt, req.ip, req.headers, at.getTime());
    if (counts) {
      recorder.enqueue({
        salt, link, from, ip: req.ip, headers: req.headers, isBot, counted, target: choice?.target, destination: choice?.url, facts: choice?.facts, at,
      });
    }
    return redirect(reply, withVisitQuery(choice ? choice.url : link.url, req.url));
  }

  /** The link at this address, or null having answered (404). */
  async function find(req: FastifyRequest, reply: FastifyReply, domain: string, slug: string): Promise<RedirectLink | null> {
    // Only a slug of the shape links may have can exist: anything else (NUL bytes, dots) is a 404
    // without touching the cache or the database.
    let link: RedirectLink | null;
    try {
      link = SLUG_SHAPE.test(slug) ? await cache.get(domain, slug) : null;
    } catch (err) {
      if (!(err instanceof LookupTimeoutError)) throw err;
      // A visitor is better told to come back than left waiting on a stalled database.
      req.log.warn({ domain, slug, retryAfter: err.details.retryAfter }, 'link lookup timed out: answered 503');
      sendVisitError(req, reply, err.code, 'Try again shortly', 'This short link cannot be looked up right now. Try again in a few seconds.', {
        retryAfter: Number(err.details.retryAfter),
      });
      return null;
    }
    if (!link) sendVisitError(req, reply, 'NOT_FOUND', 'Link not found', 'There is no short link at this address.');
    return link;
  }

  return {
    /** GET or HEAD of a short link. */
    async visit(req: FastifyRequest, reply: FastifyReply, domain: string, slug: string, from: VisitSource) {
      const link = await find(req, reply, domain, slug);
      if (!link) return reply;
      const verdict = servable(link, clock.now().getTime(), () => cookies.valid(link, req.cookies?.[unlockCookieName(link.id)], clock.now().getTime()));
      if (verdict === 'expired' || verdict === 'limit_reached') return gone(req, reply, link, verdict);
      if (verdict === 'locked') return sendPasswordForm(req, reply, { status: 200 });
      return pass(req, reply, link, from, verdict);
    },

    /** POST of the password form: right → cookie and redirect; wrong → 401 and the form again. */
    async unlock(req: FastifyRequest, reply: FastifyReply, domain: string, slug: string, password: unknown, from: VisitSource) {
      const link = await find(req, reply, domain, slug);
      if (!link) return reply;
      const verdict = servable(link, clock.now().getTime());
      if (verdict === 'expired' || verdict === 'limit_reached') return gone(req, reply, link, verdict);
      if (verdict !== 'locked') return pass(req, reply, link, from, verdict);
      // Counted per client: an IPv6 client by its /64, not one address of it.
      const visitor = await salts.ipHash(addressKey(req.ip));
      if (typeof password !== 'string' || password.length === 0 || password.length > 256) {
        const locked = await attempts.lockedFor(link.id, visitor);
        if (locked > 0) return sendLockedOut(req, reply, locked);
        return sendPasswordForm(req, reply, { status: 401, error: 'Enter the password.' });
      }
      // The attempt takes its place in the lockout window before the hash is checked, so a burst
      // of concurrent guesses cannot all be checked before the first failures are counted.
      const reserved = await attempts.reserve(link.id, visitor);
      if ('lockedFor' in reserved) return sendLockedOut(req, reply, reserved.lockedFor);
      if (!(await verifyPassword(password, link.passwordHash!, 'links'))) {
        await attempts.recordFailure(link);
        const nowLocked = await attempts.lockedFor(link.id, visitor);
        if (nowLocked > 0) return sendLockedOut(req, reply, nowLocked);
        return sendPasswordForm(req, reply, { status: 401, error: 'Wrong password. Try again.' });
      }
      await attempts.release(reserved.attempt);
      reply.setCookie(unlockCookieName(link.id), cookies.issue(link, clock.now().getTime()), {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.secureCookies,
        maxAge: UNLOCK_TTL_SECONDS,
      });
      return pass(req, reply, link, from, servable(link, clock.now().getTime(), () => true));
    },
  };
}

export type Redirector = ReturnType<typeof createRedirector>;
