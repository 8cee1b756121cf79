/**
 * DATABASE_URL as postgres.js takes it. libpq names a Unix socket's directory with a `host`
 * parameter (`postgres://user@localhost/hop?host=/var/run/postgresql`, or with no host at all:
 * `postgresql:///hop?host=/var/run/postgresql`), which postgres.js does not read: it would send
 * `host` to the server as a setting and fail. That parameter becomes the socket's path here.
 */
export function postgresConnection(databaseUrl: string): { url: string; path?: string } {
  // Anything else goes to postgres.js untouched (a list of hosts is no URL that URL() parses).
  if (!/[?&]host=/.test(databaseUrl)) return { url: databaseUrl };
  // An empty host (the socket named by `host` alone) is not a URL that URL() or postgres.js parse.
  const u = new URL(databaseUrl.replace(/^(postgres(?:ql)?:\/\/(?:[^/?#@]*@)?)(?=[:/?])/, '$1localhost'));
  const dir = u.searchParams.get('host');
  if (!dir?.startsWith('/')) return { url: databaseUrl };
  u.searchParams.delete('host');
  return { url: u.toString(), path: `${dir.replace(/\/$/, '')}/.s.PGSQL.${u.port || 5432}` };
}
