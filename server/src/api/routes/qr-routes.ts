import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { QrParamsSchema } from '@hop/shared';
import { notFound } from '../../domain/errors.js';
import { defineRoute, type ApiDeps } from '../define-route.js';
import { errorResponsesOf } from '../error-responses.js';
import { describeRoute } from '../route-description.js';

/** A year: a record's image never changes (a new look is a new record, with a new URL). */
const DOWNLOAD_CACHE = 'public, max-age=31536000, immutable';
/** The bytes of an image or a PDF, as OpenAPI writes a binary body. */
const image = z.custom<Buffer>((v) => Buffer.isBuffer(v)).meta({ type: 'string', format: 'binary' });

export async function qrRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { qr } = deps.services;

  // The workspace is the link's (`workspace: 'link'`) or the code's (`workspace: 'qr'`), as declared.
  defineRoute(app, deps, 'createQrCode', async ({ actor, params, body }) => ({ data: await qr.create(actor, params.linkId, body) }));
  defineRoute(app, deps, 'listQrCodes', async ({ actor, params, query }) => qr.list(actor.workspaceId, params.linkId, query));
  defineRoute(app, deps, 'getQrCode', async ({ actor, params }) => ({ data: await qr.get(actor.workspaceId, params.qrId) }));
  defineRoute(app, deps, 'deleteQrCode', async ({ actor, params }) => ({ data: await qr.delete(actor, params.qrId) }));
  defineRoute(app, deps, 'getQrAnalytics', async ({ actor, params, query }) => ({ data: await qr.getAnalytics(actor, params.qrId, query) }));

  // The `publicUrl` of a code: no credential, the bytes themselves, cacheable for a year.
  app.withTypeProvider<ZodTypeProvider>().get('/v1/qr/:qrId/download', {
    schema: {
      operationId: 'downloadQrCode',
      summary: 'The QR code image (public, no credential): image/png, image/svg+xml or application/pdf',
      description: describeRoute({ auth: 'public', description: 'The format is the one the code was created with. The bytes of a code never change: the answer is cacheable for a year, and `If-None-Match` with its ETag answers 304.' }),
      tags: ['qr'],
      security: [],
      params: QrParamsSchema,
      response: {
        200: { description: 'The image', content: { 'image/png': { schema: image }, 'image/svg+xml': { schema: image }, 'application/pdf': { schema: image } } },
        304: z.null().describe('Not modified: the ETag sent in If-None-Match is the current one'),
        ...errorResponsesOf({}, [], ['VALIDATION_ERROR', 'NOT_FOUND', 'INTERNAL_ERROR']),
      },
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
    if (req.headers['if-none-match'] === etag) return reply.code(304).send(null);
    // An SVG is a document: it may not run scripts or load anything when opened directly.
    if (render.contentType.startsWith('image/svg')) reply.header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'");
    return reply.type(render.contentType).send(render.bytes);
  });
}
