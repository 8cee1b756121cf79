/**
 * Fair delivery: how many attempts one dispatcher process has in flight per endpoint host and per
 * workspace, so that an endpoint that hangs (30 s per attempt) holds at most a few slots and
 * another workspace's events go out meanwhile.
 *
 * The host of an endpoint is its URL's authority, lower-cased: host name (or IP literal) and port
 * as written (`hooks.example.test:8443`), so two ports of one machine are two endpoints and two
 * names for one address are two endpoints. The same expression runs in SQL (ENDPOINT_HOST_SQL),
 * so the claim can skip the deliveries of a host at its cap.
 */
export const MAX_PER_HOST = 4;
/** A workspace with webhooks on many slow hosts still leaves half the slots to the others. */
export const MAX_PER_WORKSPACE = 8;

export const ENDPOINT_HOST_SQL = (url: string) => `lower(substring(${url} from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)'))`;

export interface Slot {
  host: string;
  workspaceId: string;
}

export function createFairShare() {
  const hosts = new Map<string, number>();
  const workspaces = new Map<string, number>();
  const bump = (m: Map<string, number>, key: string, by: number) => {
    const n = (m.get(key) ?? 0) + by;
    if (n > 0) m.set(key, n);
    else m.delete(key);
  };
  const entries = (kind: string, m: Map<string, number>) => [...m].map(([key, n]) => ({ kind, key, n }));
  const full = (m: Map<string, number>, max: number) => [...m].filter(([, n]) => n >= max).map(([key]) => key);

  return {
    take(s: Slot) {
      bump(hosts, s.host, 1);
      bump(workspaces, s.workspaceId, 1);
    },
    give(s: Slot) {
      bump(hosts, s.host, -1);
      bump(workspaces, s.workspaceId, -1);
    },
    /** What the claim must respect: hosts and workspaces at their cap, and how busy the others are. */
    state() {
      return {
        fullHosts: full(hosts, MAX_PER_HOST),
        fullWorkspaces: full(workspaces, MAX_PER_WORKSPACE),
        busy: JSON.stringify([...entries('host', hosts), ...entries('ws', workspaces)]),
      };
    },
  };
}
