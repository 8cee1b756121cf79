import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { QrParamsSchema, routes, type RouteDef } from '@hop/shared';
import type { Principal } from '../../domain/auth/credentials.js';
import { HopError, notFound } from '../../domain/errors.js';
import { defineRoute, type ApiDeps } from '../define-route.js';
import { requireMembership } from '../plugins/authentication.js';

/** A year: a record's image never changes (a new look is a new record, with a new URL). */
const DOWNLOAD_CACHE = 'public, max-age=31536000, immutable';

export async function qrRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { qr, links } = deps.services;

  /** The workspace is the link's (or the code's): membership is checked as if the path named it; foreign → 404. */
  async function actorFor(principal: Principal, workspaceId: string | null, role: RouteDef['role'], resource: string) {
    if (!workspaceId) throw notFound(resource);
    const membership = await requireMembership(deps.services, principal, workspaceId, role).catch((err) => {
      throw err.code === 'NOT_FOUND' ? notFound(resource) : err;
    });
    return { ...membership, userId: principal.userId };
  }
  const viaLink = async (principal: Principal, linkId: string, role: RouteDef['role']) => actorFor(principal, await links.workspaceOf(linkId), role, 'link');
  const viaQr = async (principal: Principal, qrId: string, role: RouteDef['role']) => actorFor(principal, await qr.workspaceOf(qrId), role, 'qr code');

  defineRoute(app, deps, 'createQrCode', async ({ principal, params, body, reply }) => {
    const actor = await viaLink(principal, params.linkId, routes.createQrCode.role);
    try {
      return { data: await qr.create(actor, params.linkId, body) };
    } catch (err) {
      if (err instanceof HopError && err.code === 'RATE_LIMIT_EXCEEDED') reply.header('retry-after', String(err.details.retryAfter));
      throw err;
    }
  });
  defineRoute(app, deps, 'listQrCodes', async ({ principal, params, query }) => {
    const actor = await viaLink(principal, params.linkId, routes.listQrCodes.role);
    return qr.list(actor.workspaceId, params.linkId, query);
  });
  defineRoute(app, deps, 'getQrCode', async ({ principal, params }) => {
    const actor = await viaQr(principal, params.qrId, routes.getQrCode.role);
    return { data: await qr.get(actor.workspaceId, params.qrId) };
  });
  defineRoute(app, deps, 'deleteQrCode', async ({ principal, params }) => {
    const actor = await viaQr(principal, params.qrId, routes.deleteQrCode.role);
    return { data: await qr.delete(actor, params.qrId) };
  });
  defineRoute(app, deps, 'getQrAnalytics', async ({ principal, params, query }) => {
    const actor = await viaQr(principal, params.qrId, routes.getQrAnalytics.role);
    return { data: await qr.analytics(actor, params.qrId, query) };
  });

  // The `publicUrl` of a code: no credential, the bytes themselves, cacheable for a year.
  app.withTypeProvider<ZodTypeProvider>().get('/v1/qr/:qrId/download', {
    schema: {
      operationId: 'downloadQrCode',
      summary: 'The QR code image (public, no credential): image/png, image/svg+xml or application/pdf',
      tags: ['qr'],
      security: [],
      params: QrParamsSchema,
    },
  }, async (req, reply) => {
    const render = await qr.download(req.params.qrId);
    if (!render) throw notFound('qr code');
    const etag = `"${req.params.qrId}"`;
    reply
      .header('cache-control', DOWNLOAD_CACHE)
      .header('etag', etag)
      .header('content-disposition', `inline; filename="${render.filename}"`)
      .header('x-content-type-options', 'nosniff');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    // An SVG is a document: it may not run scripts or load anything when opened directly.
    if (render.contentType.startsWith('image/svg')) reply.header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'");
    return reply.type(render.contentType).send(render.bytes);
  });
}
