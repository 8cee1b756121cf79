import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { requestIdFor } from '../domain/request-id.js';
import { agentOf } from '../domain/clicks/visit-details.js';
import { servable } from '../domain/links/servable.js';
import type { HostDomains } from './host-domains.js';
import { createVisitRecorder } from './visit-recorder.js';
import { locationFor, REDIRECT_HEADERS, SLUG_SHAPE, withVisitQuery, type RedirectorDeps } from './visit.js';

const LINK = { source: 'link', qrId: null } as const;
const REDIRECT_HEADER_LIST = Object.entries(REDIRECT_HEADERS).flat();

/**
 * The redirect's hot path, served straight from Node's HTTP server before Fastify sees the request.
 *
 * Most visits are a GET of a plain cached link: no password, no click limit, not expired. Such a
 * visit needs no routing, hooks, body parsing or rate limiting, and those cost more than the visit
 * itself. This answers exactly those visits with the same 302 and
 * headers the Fastify route sends, and records them the same way; everything else (HEAD, a cache
 * miss, a password, a limit, an expired link, a custom host whose set needs a reload, any path the
 * application routes itself) returns false untouched, and Fastify serves it as before.
 */
export function createFastRedirect(deps: RedirectorDeps & { hostDomains: HostDomains; trustProxy?: string }) {
  const { cache, salts, clock, hostDomains, smart } = deps;
  const recorder = createVisitRecorder(deps);
  // Fastify's own rules for a proxy's X-Forwarded-* headers, from the same setting.
  const trust = deps.trustProxy ? proxyAddr.compile(deps.trustProxy.split(',').map((s) => s.trim())) : null;
  /** One-segment paths the application routes itself (`/healthz`, `/docs`…): never a slug here. */
  const ownPaths = new Set<string>();
  let closing = false;
  /** Visits answered here since start (the metrics read it when scraped). */
  let served = 0;
  let onServed: ((startedAt: number) => void) | undefined;

  function hostnameOf(req: IncomingMessage): string {
    const forwarded = req.headers['x-forwarded-host']?.toString();
    let host = req.headers.host ?? '';
    if (forwarded && trust && trust(req.socket.remoteAddress ?? '', 0)) {
      const last = forwarded.lastIndexOf(',');
      host = last < 0 ? forwarded.trim() : forwarded.slice(last + 1).trim();
    }
    if (host[0] === '[') return host.slice(0, host.indexOf(']') + 1);
    const colon = host.indexOf(':');
    return colon < 0 ? host : host.slice(0, colon);
  }

  const addressOf = (req: IncomingMessage) => (trust ? proxyAddr(req, trust) : req.socket.remoteAddress ?? '');

  return {
    /** Keeps a path of the application's own away from the fast path. */
    reservePath(path: string) {
      ownPaths.add(path);
    },
    /** After this, every request goes to Fastify, which refuses new ones while it closes. */
    close() {
      closing = true;
    },
    get served() {
      return served;
    },
    /** Called with `performance.now()` at the start of each visit served here (metrics). */
    observe(fn: (startedAt: number) => void) {
      onServed = fn;
    },
    /** Serves the visit and returns true, or returns false having touched nothing. */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.method !== 'GET' || closing) return false;
      const startedAt = performance.now();
      const url = req.url ?? '';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      const slug = path.slice(1);
      if (path.charCodeAt(0) !== 47 /* / */ || !SLUG_SHAPE.test(slug) || ownPaths.has(path)) return false;
      const domain = hostDomains.domainForHost(hostnameOf(req));
      if (domain === undefined) return false;
      const link = cache.peek(domain, slug);
      const at = clock.now();
      const now = at.getTime();
      // Anything but a link served as it stands (a password, a limit, expired) is the router's.
      if (!link || servable(link, now) !== 'active') return false;
      const salt = salts.current(now);
      if (!salt) return false;
      // A crawler asking for a link's preview card: the router answers it.
      if (link.smart && smart.wantsPreview(link, req.headers)) return false;
      const ip = addressOf(req);
      const choice = link.smart ? smart.choose(link, salt, ip, req.headers, now) : null;
      const destination = choice ? choice.url : link.url;
      const location = locationFor(q < 0 ? destination : withVisitQuery(destination, url));
      // The head first: should Node refuse it (a character a header may not hold), the router
      // answers instead and the visit is recorded there, once. A flat list: no object per visit.
      res.writeHead(302, [
        'location', location, ...REDIRECT_HEADER_LIST,
        'x-request-id', requestIdFor(req.headers['x-request-id']), 'content-length', '0',
      ]);
      cache.countHit();
      const agent = agentOf(req.headers['user-agent'] ?? '');
      recorder.enqueue({
        salt, link, from: LINK, ip, headers: req.headers, isBot: agent.isBot, agent, counted: false,
        target: choice?.target, destination: choice?.url, facts: choice?.facts, at,
      });
      res.end();
      served++;
      onServed?.(startedAt);
      return true;
    },
  };
}

export type FastRedirect = ReturnType<typeof createFastRedirect>;
