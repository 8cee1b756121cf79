import { z } from 'zod';
import { envelope, listEnvelope } from '../envelope.js';
import { WorkspaceParamsSchema } from '../workspaces.js';
import {
  BareLinkParamsSchema, BulkCreateLinksBodySchema, CreateLinkBodySchema, LinkParamsSchema, LinkResolutionSchema, LinkSchema,
  ListLinksQuerySchema, ResolveLinkQuerySchema, UpdateLinkBodySchema,
} from '../links.js';
import { bulkResultSchema } from '../bulk.js';
import { AnalyticsQuerySchema, AnalyticsSchema, WorkspaceAnalyticsQuerySchema } from '../analytics.js';
import { CreateQrCodeBodySchema, LinkQrParamsSchema, ListQrCodesQuerySchema, QrAnalyticsQuerySchema, QrAnalyticsSchema, QrCodeSchema, QrParamsSchema } from '../qr.js';
import { ImportSourceLinksSchema, ReadImportSourceBodySchema } from '../import/contract.js';
import { route } from './route-def.js';

/** Links, their analytics and QR codes. */
export const linkRoutes = {
  // Links
  createLink: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/links', summary: 'Create a short link', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 201, params: WorkspaceParamsSchema,
    body: CreateLinkBodySchema, response: envelope(LinkSchema), idempotent: true,
  }),
  bulkCreateLinks: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/links/bulk', summary: 'Create up to 100 links, each on its own',
    tag: 'links', auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 200, params: WorkspaceParamsSchema,
    body: BulkCreateLinksBodySchema, response: envelope(z.array(bulkResultSchema(LinkSchema))), idempotent: true,
  }),
  readImportSource: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/links/import/read', summary: 'Read the links of another shortener with its token',
    description: 'The server reads Bitly, Dub, Shlink, Kutt or YOURLS through its API (https, public addresses only, at most 10,000 ' +
      'links) and answers them as records to plan and create with the bulk endpoint; nothing is created (docs/import.md).',
    tag: 'links', auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 200, params: WorkspaceParamsSchema,
    body: ReadImportSourceBodySchema, response: envelope(ImportSourceLinksSchema),
  }),
  listLinks: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/links', summary: 'List and search links', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:read', role: 'viewer', status: 200, params: WorkspaceParamsSchema,
    query: ListLinksQuerySchema, response: listEnvelope(LinkSchema),
  }),
  getLink: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/links/:linkId', summary: 'One link', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:read', role: 'viewer', status: 200, params: LinkParamsSchema,
    response: envelope(LinkSchema),
  }),
  updateLink: route({
    method: 'PATCH', path: '/v1/workspaces/:workspaceId/links/:linkId', summary: 'Change a link', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 200, params: LinkParamsSchema,
    body: UpdateLinkBodySchema, response: envelope(LinkSchema),
  }),
  updateLinkById: route({
    method: 'PATCH', path: '/v1/links/:linkId', summary: 'Change a link, its workspace implied', tag: 'links',
    auth: 'credential', workspace: 'link', scope: 'links:write', role: 'member', status: 200, params: BareLinkParamsSchema,
    body: UpdateLinkBodySchema, response: envelope(LinkSchema),
  }),
  deleteLink: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/links/:linkId', summary: 'Delete a link', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 200, params: LinkParamsSchema,
    response: envelope(LinkSchema),
  }),
  resolveLink: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/links/:linkId/resolve',
    summary: 'Where a described visitor would go, and why (records nothing)', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:read', role: 'viewer', status: 200, params: LinkParamsSchema,
    query: ResolveLinkQuerySchema, response: envelope(LinkResolutionSchema),
  }),
  checkLink: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/links/:linkId/check',
    summary: 'Check the destination now (HEAD, else GET) and store its health', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 200, params: LinkParamsSchema,
    response: envelope(LinkSchema),
  }),
  // Analytics
  getLinkAnalytics: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/links/:linkId/analytics', summary: 'Clicks of one link',
    tag: 'analytics', auth: 'credential', workspace: 'path', scope: 'analytics:read', role: 'viewer', status: 200,
    params: LinkParamsSchema, query: AnalyticsQuerySchema, response: envelope(AnalyticsSchema),
  }),
  getWorkspaceAnalytics: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/analytics', summary: 'Clicks across a workspace, with top links',
    tag: 'analytics', auth: 'credential', workspace: 'path', scope: 'analytics:read', role: 'viewer', status: 200,
    params: WorkspaceParamsSchema, query: WorkspaceAnalyticsQuerySchema, response: envelope(AnalyticsSchema),
  }),
  // QR codes (docs/api.md, QR codes); the workspace is the link's. `GET /v1/qr/:qrId/download` (public, the
  // image bytes) is registered by the server beside these, outside the JSON table.
  createQrCode: route({
    method: 'POST', path: '/v1/links/:linkId/qr', summary: 'Create a QR code for a link (quota per plan and hour)',
    tag: 'qr', auth: 'credential', workspace: 'link', scope: 'links:write', role: 'member', status: 201, params: LinkQrParamsSchema,
    body: CreateQrCodeBodySchema, response: envelope(QrCodeSchema),
  }),
  listQrCodes: route({
    method: 'GET', path: '/v1/links/:linkId/qr', summary: 'QR codes of a link, newest first', tag: 'qr',
    auth: 'credential', workspace: 'link', scope: 'links:read', role: 'viewer', status: 200, params: LinkQrParamsSchema,
    query: ListQrCodesQuerySchema, response: listEnvelope(QrCodeSchema),
  }),
  getQrCode: route({
    method: 'GET', path: '/v1/qr/:qrId', summary: 'One QR code', tag: 'qr', auth: 'credential', workspace: 'qr', scope: 'links:read',
    role: 'viewer', status: 200, params: QrParamsSchema, response: envelope(QrCodeSchema),
  }),
  deleteQrCode: route({
    method: 'DELETE', path: '/v1/qr/:qrId', summary: 'Delete a QR code (printed copies stop working)', tag: 'qr',
    auth: 'credential', workspace: 'qr', scope: 'links:write', role: 'member', status: 200, params: QrParamsSchema,
    response: envelope(QrCodeSchema),
  }),
  getQrAnalytics: route({
    method: 'GET', path: '/v1/qr/:qrId/analytics', summary: 'Scans of one QR code', tag: 'qr', auth: 'credential', workspace: 'qr',
    scope: 'analytics:read', role: 'viewer', status: 200, params: QrParamsSchema, query: QrAnalyticsQuerySchema,
    response: envelope(QrAnalyticsSchema),
  }),
};
