// route-paths.ts is derived from routes.ts (method, path and weakest role of every route, without
// zod, for the client and the dashboard's shell): this keeps the two equal. UPDATE_SNAPSHOTS=1
// rewrites it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { routes } from './routes.js';

const file = new URL('./route-paths.ts', import.meta.url);

function routePathsSource(): string {
  const entries = Object.entries(routes).map(([name, def]) => `  ${name}: ['${def.method}', '${def.path}'],`);
  const roles = Object.entries(routes).flatMap(([name, def]) => ('role' in def ? [`  ${name}: '${def.role}',`] : []));
  return `// Generated from routes.ts by route-paths.test.ts (UPDATE_SNAPSHOTS=1 rewrites it): the method and
// path of every route, and the weakest role of those acting in a workspace, without zod, so that
// the client makes a call and the dashboard's shell decides what to offer without loading a schema.
import type { ROLES } from './constants.js';

export const ROUTE_PATHS = {
${entries.join('\n')}
} as const satisfies Record<string, readonly [string, string]>;

export const ROUTE_ROLES: Partial<Record<keyof typeof ROUTE_PATHS, (typeof ROLES)[number]>> = {
${roles.join('\n')}
};
`;
}

test('route-paths.ts has the method, path and role of every route of routes.ts', () => {
  if (process.env.UPDATE_SNAPSHOTS) writeFileSync(file, routePathsSource());
  assert.equal(readFileSync(file, 'utf8'), routePathsSource());
});
