// Stopping the HTTP server without resetting a request a client was entitled to send.
//
// `server.close()` is not enough: since Node 19 it also destroys every keep-alive connection that
// is idle as the server sees it, and that includes one whose client has just written its next
// request into a socket the server has not read yet (a busy event loop, a loaded machine).
// Destroying a socket with unread bytes sends a TCP reset, and the client sees ECONNRESET for a
// request on a connection the server had accepted. So the stop goes in this order:
//  1. the listener closes: a new connection is refused (ECONNREFUSED, which a client or a load
//     balancer can retry elsewhere), never accepted and then dropped. Connections the kernel has
//     already queued are accepted first: closing the listener would reset them, and on a busy
//     event loop they may have waited there for a second or more;
//  2. every answer from then on carries `Connection: close` (those in flight too, when their head
//     has not left yet), so the client sends nothing more on that connection and Node closes it
//     once the answer is out;
//  3. a connection idle at the signal has a grace period in which a request already on the wire is
//     read and answered like any other; only connections with nothing in flight are closed after it;
//  4. requests still in flight are awaited up to a deadline, after which what is left is destroyed,
//     so the rest of the stop (writing buffered clicks) still runs before the process must exit.
// A client that sends nothing for the whole grace and then writes just as its connection closes
// can still lose that race: it is the one every keep-alive server has at its idle timeout.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

export interface ConnectionDrain {
  /** Runs the stop above; resolves once every connection is closed. Calling it again joins the first. */
  drain(): Promise<void>;
}

export function connectionDrain(server: Server, opts: { graceMs?: number; deadlineMs?: number } = {}): ConnectionDrain {
  const graceMs = opts.graceMs ?? 1000;
  const deadlineMs = opts.deadlineMs ?? 10_000;
  /** Answers the application had not finished when its listener returned. */
  const unfinished = new Set<ServerResponse>();
  let draining = false;
  let drained: Promise<void> | undefined;

  // One function for every response, not a closure each (`close` is emitted once: `on` needs no
  // `once` wrapper either).
  function forget(this: ServerResponse) {
    unfinished.delete(this);
  }
  // Ahead of the application's own listener, so even an answer written synchronously (the
  // redirector's fast path) carries the header.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.setHeader('connection', 'close');
  });
  // After it: an answer it already finished (the fast path's, nearly every visit) needs no
  // watching, and watching each one was a measurable part of a redirect's CPU.
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (res.writableEnded) return;
    unfinished.add(res);
    res.on('close', forget);
  });

  async function run(): Promise<void> {
    // Two turns of the event loop: the second's poll phase starts after the signal was handled
    // and accepts every connection queued by then. Answers stay keep-alive meanwhile, so clients
    // have no reason to open new connections in that moment.
    await nextTurn();
    await nextTurn();
    draining = true;
    for (const res of unfinished) if (!res.headersSent) res.setHeader('connection', 'close');
    // net.Server's close, not http.Server's: the latter would destroy idle connections right now.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    if (await settlesWithin(closed, graceMs)) return;
    // The grace timer may fire right after the event loop was blocked (a loaded machine, a long
    // query on the embedded database): requests that arrived meanwhile are not read yet, and their
    // connections look idle. One turn of the loop's poll phase reads them first.
    await nextTurn();
    server.closeIdleConnections();
    // An answer in flight now, or whose head left before the stop, keeps its connection open
    // until it is out: each such connection is closed as it turns idle.
    const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
    try {
      if (await settlesWithin(closed, deadlineMs - graceMs)) return;
    } finally {
      clearInterval(sweep);
    }
    server.closeAllConnections();
    await closed;
  }

  return {
    drain() {
      drained ??= run();
      return drained;
    },
  };
}

/** How often, after the grace, connections that have turned idle are closed. */
const SWEEP_MS = 25;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `p` settles within `ms`, without leaving a timer behind. */
async function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), false)));
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
