// route-paths.ts is derived from routes.ts (method and path of every route, without zod, for the
// client): this keeps the two equal. UPDATE_SNAPSHOTS=1 rewrites it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { routes } from './routes.js';

const file = new URL('./route-paths.ts', import.meta.url);

function routePathsSource(): string {
  const entries = Object.entries(routes).map(([name, def]) => `  ${name}: ['${def.method}', '${def.path}'],`);
  return `// Generated from routes.ts by route-paths.test.ts (UPDATE_SNAPSHOTS=1 rewrites it): the method and
// path of every route, without zod, so that the client loads no schema to make a call.
export const ROUTE_PATHS = {
${entries.join('\n')}
} as const satisfies Record<string, readonly [string, string]>;
`;
}

test('route-paths.ts has the method and path of every route of routes.ts', () => {
  if (process.env.UPDATE_SNAPSHOTS) writeFileSync(file, routePathsSource());
  assert.equal(readFileSync(file, 'utf8'), routePathsSource());
});
