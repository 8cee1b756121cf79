import { Resolver } from 'node:dns/promises';

/** The TXT strings at a name (each record's chunks joined), `[]` when there is no such record. */
export type TxtLookup = (name: string) => Promise<string[]>;

/** Answers that mean "no record here", as opposed to a resolver that could not answer. */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * Looks TXT records up with node's resolver: the system's servers, or `servers` (HOP_DNS_SERVERS,
 * `ip` or `ip:port`) when given. A failure other than "no such record" rejects, so the caller can
 * tell a missing record from a lookup that did not happen.
 */
export function createTxtLookup(servers: string[] = [], opts: { timeoutMs?: number; tries?: number } = {}): TxtLookup {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 3000, tries: opts.tries ?? 2 });
  if (servers.length) resolver.setServers(servers);
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (err) {
      if (ABSENT.has((err as NodeJS.ErrnoException).code ?? '')) return [];
      throw err;
    }
  };
}
