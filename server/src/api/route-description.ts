import type { RouteDef } from '@hop/shared';

const WORKSPACE_FROM: Record<NonNullable<RouteDef['workspace']>, string> = {
  path: 'the workspace in the path',
  link: "the link's workspace",
  qr: "the QR code's workspace",
  credential: 'the workspace the API key or OAuth token is bound to (a session is refused)',
  none: 'no workspace: it acts on the account',
};

/**
 * An operation's description in the OpenAPI document: what the route declares beyond its
 * summary, then who may call it, in words, from the same declaration the access hook enforces.
 */
export function describeRoute(def: Pick<RouteDef, 'description' | 'auth' | 'workspace' | 'scope' | 'role'> & { idempotent?: boolean; bare?: boolean }): string {
  const access = (() => {
    if (def.auth === 'public') return 'Public: no credential needed.';
    if (def.auth === 'admin') return 'Operator only: `X-Admin-Token` with the server\'s HOP_ADMIN_TOKEN.';
    const who = def.auth === 'session' ? 'A dashboard session' : 'A session, an API key or an OAuth token';
    const scope = def.scope ? ` with the \`${def.scope}\` scope` : '';
    const role = def.role ? `, of a member whose role is ${def.role} or higher` : '';
    const where = def.workspace ? ` Acts in ${WORKSPACE_FROM[def.workspace]}.` : '';
    return `${who}${scope}${role}.${where}`;
  })();
  const extras = [
    def.idempotent ? 'Honours `Idempotency-Key`: a retry with the same key and body answers the first result.' : '',
    def.bare ? 'Answers the data itself, without the `{success, data}` envelope.' : '',
  ];
  return [def.description ?? '', access, ...extras].filter(Boolean).join('\n\n');
}
