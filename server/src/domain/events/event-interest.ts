import type { EventType } from '@hop/shared';
import type { Queryable } from '../../db/database.js';

/** Which workspaces want which events, as of one moment. */
export interface EventInterest {
  has(workspaceId: string, type: EventType): boolean;
  /** The workspaces that want any of `types`. */
  workspaces(types: EventType[]): string[];
}

/**
 * Which workspaces want which events right now, read through `q`: the types their active webhooks
 * subscribe to, and every type while an event stream (`hop webhooks tail`) is open in any process.
 * Click events are only written for those, so a busy link costs no event rows when nobody listens.
 * The click event producer reads it once a run, in the run's transaction, so a stream opened a
 * moment ago gets the clicks that follow its opening, whichever process it opened in.
 */
export async function eventInterest(q: Queryable): Promise<EventInterest> {
  const rows = await q.query<{ workspace_id: string; type: string }>(
    `select workspace_id, unnest(events) as type from webhooks where is_active
     union select workspace_id, '*' from event_stream_sessions where expires_at > now()`,
  );
  const wanted = new Map<string, Set<string>>();
  for (const r of rows) (wanted.get(r.workspace_id) ?? wanted.set(r.workspace_id, new Set()).get(r.workspace_id)!).add(r.type);
  return {
    has(workspaceId, type) {
      const types = wanted.get(workspaceId);
      return !!types && (types.has('*') || types.has(type));
    },
    workspaces: (types) => [...wanted].filter(([, t]) => t.has('*') || types.some((x) => t.has(x))).map(([ws]) => ws),
  };
}
