import { createHmac } from 'node:crypto';
import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { randomBase62 } from '../ids.js';
import { EVENT_CHANNEL } from './event-outbox.js';
import { signedHeaders } from '../webhooks/webhook-sender.js';

const HEARTBEAT_MS = 15_000;
const SESSION_TTL_SECONDS = 60;
/** A resume replays at most this far back: enough for a short disconnect. */
const REPLAY_WINDOW = '15 minutes';
const PAGE = 200;

interface Session {
  id: string;
  workspaceId: string;
  types: Set<string> | null;
  secret: string;
  lastSeq: number;
  write: (chunk: string) => void;
  end: () => void;
  pumping: boolean;
  again: boolean;
}

const sse = (fields: { id?: string | number; event?: string; data: unknown }) =>
  `${fields.id !== undefined ? `id: ${fields.id}\n` : ''}${fields.event ? `event: ${fields.event}\n` : ''}data: ${JSON.stringify(fields.data)}\n\n`;

/**
 * Live event streams for `hop webhooks tail`: every event of a workspace, from whichever process
 * produced it (NOTIFY wakes this one; the events table is the source), each signed the way a
 * webhook delivery is, so the listener can verify and forward it unchanged.
 */
export function createEventStreamHub(deps: { db: Database; clock: Clock; newId: IdGenerator; serverSecret: string }) {
  const { db, newId } = deps;
  const byWorkspace = new Map<string, Set<Session>>();
  let unlisten: (() => Promise<void>) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  /** Stable per credential and workspace, so a listener's configured secret survives reconnects. */
  const secretFor = (credentialId: string, workspaceId: string) =>
    'whsec_' + createHmac('sha256', deps.serverSecret).update(`event-stream:${credentialId}:${workspaceId}`).digest('base64');

  async function pump(s: Session) {
    if (s.pumping) {
      s.again = true;
      return;
    }
    s.pumping = true;
    try {
      do {
        s.again = false;
        for (;;) {
          const rows = await db.query<{ seq: number; type: string; payload: unknown; id: string }>(
            'select seq, id, type, payload from events where workspace_id = $1 and seq > $2 order by seq limit $3',
            [s.workspaceId, s.lastSeq, PAGE],
          );
          for (const r of rows) {
            s.lastSeq = Number(r.seq);
            if (r.payload == null || (s.types && !s.types.has(r.type))) continue;
            const body = typeof r.payload === 'string' ? r.payload : JSON.stringify(r.payload);
            const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
            const deliveryId = newId('dlv');
            s.write(sse({
              id: r.seq,
              event: r.type,
              data: {
                eventId: r.id, type: r.type, deliveryId, body,
                headers: signedHeaders({ secrets: [s.secret], deliveryId, eventType: r.type, rawBody: body, timestamp }),
              },
            }));
          }
          if (rows.length < PAGE) break;
        }
      } while (s.again);
    } finally {
      s.pumping = false;
    }
  }

  async function onNotify(payload: string) {
    const workspaceId = payload.split(':')[0];
    for (const s of byWorkspace.get(workspaceId) ?? []) void pump(s).catch(() => {});
  }

  async function beat() {
    const ids: string[] = [];
    for (const set of byWorkspace.values()) {
      for (const s of set) {
        s.write(': ping\n\n');
        ids.push(s.id);
      }
    }
    if (ids.length) {
      await db.query(`update event_stream_sessions set expires_at = now() + interval '${SESSION_TTL_SECONDS} seconds' where id = any($1::text[])`, [ids]);
    }
  }

  return {
    async start() {
      unlisten = await db.listen(EVENT_CHANNEL, (p) => void onNotify(p), () => {
        for (const set of byWorkspace.values()) for (const s of set) void pump(s).catch(() => {});
      });
      heartbeat = setInterval(() => void beat().catch(() => {}), HEARTBEAT_MS);
      heartbeat.unref();
    },

    /** Opens a stream; `write` gets SSE text. Resolves with a close function. */
    async open(opts: { workspaceId: string; credentialId: string; types: string[] | null; lastEventId?: string; write: (chunk: string) => void; end: () => void }) {
      const id = `ess_${randomBase62(16)}`;
      let lastSeq: number;
      const resumeFrom = opts.lastEventId && /^\d{1,18}$/.test(opts.lastEventId) ? Number(opts.lastEventId) : null;
      if (resumeFrom !== null) {
        // Replay what a short disconnect missed, but nothing older than the window.
        const [r] = await db.query<{ floor: number | null }>(
          `select min(seq) - 1 as floor from events where workspace_id = $1 and created_at > now() - interval '${REPLAY_WINDOW}'`,
          [opts.workspaceId],
        );
        lastSeq = Math.max(resumeFrom, Number(r?.floor ?? resumeFrom));
      } else {
        const [r] = await db.query<{ max: number | null }>('select max(seq) as max from events where workspace_id = $1', [opts.workspaceId]);
        lastSeq = Number(r?.max ?? 0);
      }
      const session: Session = {
        id, workspaceId: opts.workspaceId, types: opts.types ? new Set(opts.types) : null,
        secret: secretFor(opts.credentialId, opts.workspaceId), lastSeq, write: opts.write, end: opts.end, pumping: false, again: false,
      };
      await db.query(
        `insert into event_stream_sessions (id, workspace_id, expires_at) values ($1, $2, now() + interval '${SESSION_TTL_SECONDS} seconds')`,
        [id, opts.workspaceId],
      );
      const [ws] = await db.query<{ slug: string }>('select slug from workspaces where id = $1', [opts.workspaceId]);
      (byWorkspace.get(opts.workspaceId) ?? byWorkspace.set(opts.workspaceId, new Set()).get(opts.workspaceId)!).add(session);
      opts.write('retry: 2000\n\n');
      opts.write(sse({ event: 'ready', data: { sessionId: id, secret: session.secret, workspaceId: opts.workspaceId, workspaceSlug: ws?.slug ?? null, events: opts.types ?? 'all' } }));
      void pump(session).catch(() => {});
      return async () => {
        byWorkspace.get(opts.workspaceId)?.delete(session);
        await db.query('delete from event_stream_sessions where id = $1', [id]).catch(() => {});
      };
    },

    async stop() {
      if (heartbeat) clearInterval(heartbeat);
      await unlisten?.();
      for (const set of byWorkspace.values()) for (const s of set) s.end();
      byWorkspace.clear();
    },
  };
}

export type EventStreamHub = ReturnType<typeof createEventStreamHub>;
