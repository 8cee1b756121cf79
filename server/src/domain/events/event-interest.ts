import type { EventType } from '@hop/shared';
import type { Queryable } from '../../db/database.js';

const REFRESH_MS = 1000;

/**
 * Which workspaces want which events right now: the types their active webhooks subscribe to,
 * and every type while an event stream (`hop webhooks tail`) is open in any process. Click events
 * are only written for those, so a busy link costs no event rows when nobody listens.
 */
export function createEventInterest(deps: { db: Queryable }) {
  let wanted = new Map<string, Set<string>>();
  let loadedAt = 0;
  let loading: Promise<void> | undefined;

  // Reads through the caller's transaction when given one: on the embedded database a second
  // query outside it would wait for the transaction to end, which waits for this.
  async function refresh(q: Queryable) {
    const rows = await q.query<{ workspace_id: string; type: string }>(
      `select workspace_id, unnest(events) as type from webhooks where is_active
       union select workspace_id, '*' from event_stream_sessions where expires_at > now()`,
    );
    const next = new Map<string, Set<string>>();
    for (const r of rows) (next.get(r.workspace_id) ?? next.set(r.workspace_id, new Set()).get(r.workspace_id)!).add(r.type);
    wanted = next;
    loadedAt = Date.now();
  }

  return {
    /**
     * Whether a workspace wants an event type, as of the cache (refreshed first when older than a
     * second): awaited once per batch of clicks, then asked synchronously for each, since a batch
     * holds thousands of visits and an await each was a cost of its own.
     */
    async wanted(q: Queryable = deps.db): Promise<(workspaceId: string, type: EventType) => boolean> {
      if (Date.now() - loadedAt > REFRESH_MS) {
        loading ??= refresh(q).finally(() => (loading = undefined));
        await loading;
      }
      const snapshot = wanted;
      return (workspaceId, type) => {
        const types = snapshot.get(workspaceId);
        return !!types && (types.has('*') || types.has(type));
      };
    },
    /** Forget the cache at once (a webhook or stream was just added in this process). */
    invalidate() {
      loadedAt = 0;
    },
  };
}

export type EventInterest = ReturnType<typeof createEventInterest>;
