import { envelope, listEnvelope, ListQuerySchema } from '../envelope.js';
import { WorkspaceParamsSchema } from '../workspaces.js';
import { AddDomainBodySchema, DomainParamsSchema, DomainSchema } from '../domains.js';
import { RenameTagBodySchema, TagParamsSchema, TagSummarySchema } from '../tags.js';
import { route } from './route-def.js';

/** Custom domains and tags. */
export const domainRoutes = {
  // Custom domains (docs/api.md, Domains and tags)
  listDomains: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/domains', summary: 'Custom domains of a workspace', tag: 'domains',
    auth: 'credential', workspace: 'path', scope: 'domains:read', role: 'viewer', status: 200, params: WorkspaceParamsSchema,
    query: ListQuerySchema, response: listEnvelope(DomainSchema),
  }),
  addDomain: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/domains', summary: 'Add a custom domain (verify it next)',
    tag: 'domains', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'admin', status: 201, params: WorkspaceParamsSchema,
    body: AddDomainBodySchema, response: envelope(DomainSchema),
  }),
  verifyDomain: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/domains/:domainId/verify',
    summary: 'Check the TXT record at _hop-challenge.{name}; 400 with the reason when it does not match',
    tag: 'domains', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'admin', status: 200, params: DomainParamsSchema,
    response: envelope(DomainSchema),
  }),
  deleteDomain: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/domains/:domainId',
    summary: 'Remove a custom domain (409 while links use it)', tag: 'domains', auth: 'credential', workspace: 'path',
    scope: 'workspace:write', role: 'admin', status: 200, params: DomainParamsSchema, response: envelope(DomainSchema),
  }),
  // Tags (docs/api.md, Domains and tags)
  listTags: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/tags', summary: 'Tags in use, with how many links carry each',
    tag: 'tags', auth: 'credential', workspace: 'path', scope: 'tags:read', role: 'viewer', status: 200, params: WorkspaceParamsSchema,
    query: ListQuerySchema, response: listEnvelope(TagSummarySchema),
  }),
  renameTag: route({
    method: 'PATCH', path: '/v1/workspaces/:workspaceId/tags/:name', summary: 'Rename a tag on every link (merging with an existing tag)',
    tag: 'tags', auth: 'credential', workspace: 'path', scope: 'links:write', role: 'admin', status: 200, params: TagParamsSchema,
    body: RenameTagBodySchema, response: envelope(TagSummarySchema),
  }),
  deleteTag: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/tags/:name', summary: 'Remove a tag from every link',
    tag: 'tags', auth: 'credential', workspace: 'path', scope: 'links:write', role: 'admin', status: 200, params: TagParamsSchema,
    response: envelope(TagSummarySchema),
  }),
};
