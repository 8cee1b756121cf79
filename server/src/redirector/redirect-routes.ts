import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import type { Redirector } from './visit.js';
import type { HostDomains } from './host-domains.js';
import type { QrTargets } from './qr-targets.js';
import { sendVisitError } from './pages.js';

const LINK = { source: 'link', qrId: null } as const;

/**
 * Short links: GET and HEAD redirect; POST answers the password form. The Host picks the domain
 * whose slugs are served (a verified custom domain, else the default short domain; in development
 * the API host serves the default one's).
 */
export async function redirectRoutes(app: FastifyInstance, opts: { redirector: Redirector; hostDomains: HostDomains; qrTargets: QrTargets }) {
  const { redirector, hostDomains, qrTargets } = opts;
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 4096 });
  const schema = { hide: true } as const;

  app.get<{ Params: { slug: string } }>('/:slug', { schema }, async (req, reply) =>
    redirector.visit(req, reply, await hostDomains.domainFor(req), req.params.slug, LINK));
  app.post<{ Params: { slug: string }; Body: { password?: unknown } }>('/:slug', { schema }, async (req, reply) =>
    redirector.unlock(req, reply, await hostDomains.domainFor(req), req.params.slug, req.body?.password, LINK));

  // QR scans: the code is the record's stable address, resolved to its link's current domain and
  // slug, then visited like the link itself (password, expiry, limit, bots), counted as source qr.
  // A password-protected link's form posts back here, so the unlock is counted as a scan too.
  app.get<{ Params: { code: string } }>('/q/:code', { schema }, async (req, reply) => {
    const target = await qrTargets.resolve(req.params.code);
    if (!target) return sendVisitError(req, reply, 'NOT_FOUND', 'QR code not found', 'There is no QR code at this address.');
    return redirector.visit(req, reply, target.domain, target.slug, { source: 'qr', qrId: target.qrId });
  });
  app.post<{ Params: { code: string }; Body: { password?: unknown } }>('/q/:code', { schema }, async (req, reply) => {
    const target = await qrTargets.resolve(req.params.code);
    if (!target) return sendVisitError(req, reply, 'NOT_FOUND', 'QR code not found', 'There is no QR code at this address.');
    return redirector.unlock(req, reply, target.domain, target.slug, req.body?.password, { source: 'qr', qrId: target.qrId });
  });
}
