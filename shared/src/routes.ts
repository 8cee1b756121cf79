import { accountRoutes } from './routes/account-routes.js';
import { credentialRoutes } from './routes/credential-routes.js';
import { ciTrustRoutes } from './routes/ci-trust-routes.js';
import { domainRoutes } from './routes/domain-routes.js';
import { integrationRoutes } from './routes/integration-routes.js';
import { linkRoutes } from './routes/link-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';

export type { RouteAuth, RouteDef, RouteTag, WorkspaceSource } from './routes/route-def.js';
export { ROUTE_TAGS } from './routes/route-def.js';

/**
 * Every endpoint of the API: one entry each, shared by the server, the client and the docs. Each
 * resource's routes live in routes/<resource>-routes.ts.
 */
export const routes = {
  ...accountRoutes,
  ...sessionRoutes,
  ...credentialRoutes,
  ...ciTrustRoutes,
  ...linkRoutes,
  ...domainRoutes,
  ...webhookRoutes,
  ...integrationRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
