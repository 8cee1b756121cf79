import { envelope, listEnvelope, ListQuerySchema } from '../envelope.js';
import { WorkspaceParamsSchema } from '../workspaces.js';
import { CiTrustParamsSchema, CiTrustSchema, CreateCiTrustBodySchema } from '../ci-trusts.js';
import { route } from './route-def.js';

/**
 * CI trusts (docs/ci.md). The exchange itself is a grant of the token endpoint
 * (`POST /v1/oauth/token`), which speaks RFC 6749 rather than the envelope.
 */
export const ciTrustRoutes = {
  listCiTrusts: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/ci-trusts', summary: 'CI trusts of a workspace, with their last use',
    tag: 'ci', auth: 'credential', workspace: 'path', scope: 'keys:manage', role: 'admin', status: 200,
    params: WorkspaceParamsSchema, query: ListQuerySchema, response: listEnvelope(CiTrustSchema),
  }),
  createCiTrust: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/ci-trusts', summary: 'Trust the CI jobs of a repository',
    description: 'Jobs whose OIDC ID token comes from `issuer` and names the repository (and the ref, environment and workflow, when given) may exchange it at the token endpoint for an access token of at most 15 minutes with these scopes.',
    tag: 'ci', auth: 'credential', workspace: 'path', scope: 'keys:manage', role: 'admin', status: 201,
    params: WorkspaceParamsSchema, body: CreateCiTrustBodySchema, response: envelope(CiTrustSchema),
  }),
  getCiTrust: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/ci-trusts/:trustId', summary: 'A CI trust',
    tag: 'ci', auth: 'credential', workspace: 'path', scope: 'keys:manage', role: 'admin', status: 200,
    params: CiTrustParamsSchema, response: envelope(CiTrustSchema),
  }),
  deleteCiTrust: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/ci-trusts/:trustId', summary: 'Remove a CI trust and end the tokens it gave',
    tag: 'ci', auth: 'credential', workspace: 'path', scope: 'keys:manage', role: 'admin', status: 200,
    params: CiTrustParamsSchema, response: envelope(CiTrustSchema),
  }),
};
