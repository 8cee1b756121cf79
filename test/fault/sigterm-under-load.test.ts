// SIGTERM under load: requests the server had begun before the signal are answered, no connection
// is reset, and every visit it counted is in the database once it has exited (the click buffer is
// flushed, not lost).
// A request is surely begun when the server has read its headers and its body is still coming:
// those are sent here by hand, half before the signal and the rest once the server is draining
// (it refuses new connections). The server proves it has read the headers by answering
// `Expect: 100-continue`; a sleep cannot prove either on a loaded machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHopClient } from '@hop/shared/client';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { browserVisit, sleep, startLoad, stopLoads, tally } from '../helpers/load.js';

/** How long a stopping server keeps a connection idle at the signal open (connection-drain.ts). */
const DRAIN_GRACE_MS = 1000;

/** The longest time this process's event loop went without running a 10 ms timer, since the last reset. */
function stallMonitor() {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  return {
    get longestMs() {
      return Math.max(longest, performance.now() - last);
    },
    reset() {
      longest = 0;
      last = performance.now();
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * A POST on a keep-alive connection of its own whose headers go now, the first half of its body
 * once the server has read them (its `100 Continue`: `begun` resolves), and the rest on `finish()`.
 */
function halfSentPost(baseUrl: string, path: string, headers: Record<string, string>, body: string) {
  const u = new URL(baseUrl);
  const bytes = Buffer.from(body);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const req = httpRequest({
    host: u.hostname, port: u.port, path, method: 'POST', agent,
    headers: { ...headers, 'content-length': String(bytes.length), expect: '100-continue' },
  });
  const begun = new Promise<void>((resolve) => req.once('continue', () => {
    req.write(bytes.subarray(0, bytes.length >> 1));
    resolve();
  }));
  const answered = new Promise<{ status: number; connection: string; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: String(res.headers.connection), body: text }));
    });
    req.on('error', reject);
  });
  answered.catch(() => {}); // awaited in finish(); a failure must not go unhandled before then
  req.flushHeaders();
  return {
    begun,
    finish() {
      req.end(bytes.subarray(bytes.length >> 1));
      return answered;
    },
    destroy: () => agent.destroy(),
  };
}

/** Resolves once a new connection to the port is refused: the server has closed its listener. */
async function refusingConnections(port: number) {
  await eventually(() => new Promise<true | undefined>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(undefined)));
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? true : undefined));
  }), 10_000, 'the listener to close');
}

/**
 * A keep-alive connection driven by hand, so the test decides when each request goes on the wire:
 * `get()` writes one request and resolves with the answer's status and headers; `ended` settles
 * when the server closes the connection: cleanly (`'end'`) or with a reset (rejects).
 */
async function keepAliveConnection(baseUrl: string) {
  const u = new URL(baseUrl);
  const socket: Socket = connect(Number(u.port), u.hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = '';
  let waiting: ((head: string) => void) | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0 || !waiting) return;
    const head = buffered.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (buffered.length < end + 4 + length) return;
    buffered = buffered.slice(end + 4 + length);
    const done = waiting;
    waiting = undefined;
    done(head);
  });
  const ended = new Promise<'end'>((resolve, reject) => {
    socket.once('end', () => resolve('end'));
    socket.once('error', reject);
  });
  ended.catch(() => {}); // awaited by the test; a reset must not go unhandled before then
  return {
    ended,
    get(path: string, headers: Record<string, string>) {
      const answered = new Promise<{ status: number; connection: string }>((resolve) => {
        waiting = (head) => resolve({
          status: Number(head.split(' ')[1]),
          connection: (/\r\nconnection: *([^\r]*)/i.exec(head)?.[1] ?? 'keep-alive').toLowerCase(),
        });
      });
      const lines = Object.entries({ host: u.host, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(`GET ${path} HTTP/1.1\r\n${lines}\r\n`);
      return Promise.race([answered, ended.then(() => { throw new Error('connection closed before the answer'); })]);
    },
    destroy: () => socket.destroy(),
  };
}

test('SIGTERM under load: requests begun before it are answered, no connection is reset, and every counted visit is written', { timeout: 90_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-fault-term-'));
  // The longest flush interval: at the signal, up to a second of visits is only in memory.
  const env = { HOP_CLICK_FLUSH_MS: '1000', HOP_ADMIN_TOKEN: ADMIN_TOKEN };
  const server = await startServer({ dataDir, env });
  let again: Awaited<ReturnType<typeof startServer>> | undefined;
  const connections: { destroy(): void }[] = [];
  try {
    const t = await team('pro', server.url);
    const ws = { workspaceId: t.workspaceId };
    const { data: link } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/sigterm' } });
    const path = new URL(link.shortUrl).pathname;
    const shortUrl = `${server.url}${path}`;

    const stalls = stallMonitor(); // this process's own: see the load's assertions below
    const visits = startLoad(30, () => browserVisit(shortUrl));
    const created: string[] = [];
    const api = startLoad(3, async (w, i) => {
      const res = await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: `https://example.com/load/${w}/${i}` } });
      if (res.status === 201) created.push((res.body as { data: { id: string } }).data.id);
      return res.status;
    });
    await sleep(800);
    // Begun before the signal: link creations, and password-form posts to the link (a visit
    // through Fastify, counted like any other).
    const auth = { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' };
    const slowCreates = Array.from({ length: 4 }, (_, i) => halfSentPost(server.url, `/v1/workspaces/${t.workspaceId}/links`, auth,
      JSON.stringify({ url: `https://example.com/begun-before-sigterm/${i}`, title: `begun ${i}` })));
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_UA.desktopChrome };
    const slowVisits = Array.from({ length: 4 }, () => halfSentPost(server.url, path, form, 'password=not-needed-here'));
    connections.push(...slowCreates, ...slowVisits);
    await Promise.all([...slowCreates, ...slowVisits].map((r) => r.begun)); // the server has begun them
    // Two keep-alive connections, answered once: one writes its next request right after the
    // signal (read before the server acts on it or after: the moment a server that closes idle
    // sockets at once would reset it), one stays idle.
    const visitor = { 'user-agent': BROWSER_UA.desktopChrome };
    const across = await keepAliveConnection(server.url);
    const idle = await keepAliveConnection(server.url);
    connections.push(across, idle);
    for (const c of [across, idle]) assert.deepEqual(await c.get(path, visitor), { status: 302, connection: 'keep-alive' });

    stalls.reset(); // from the signal on
    const visitsAtSignal = visits.outcomes.length;
    const apiAtSignal = api.outcomes.length;
    server.child.kill('SIGTERM');
    const acrossAnswer = across.get(path, visitor);
    await refusingConnections(server.port); // the server is draining: it waits for the requests above
    const creations = await Promise.all(slowCreates.map((r) => r.finish()));
    const formVisits = await Promise.all(slowVisits.map((r) => r.finish()));
    const code = await server.exited;
    const visited = await visits.stop();
    const apiOutcomes = await api.stop();
    stalls.stop();

    assert.equal(code, 0, `exit code on SIGTERM\n${server.output().slice(-3000)}`);
    // Answered after the signal, so each tells its keep-alive client that the connection closes.
    assert.deepEqual(creations.map((r) => [r.status, r.connection]), Array(4).fill([201, 'close']), 'link creations begun before SIGTERM are answered');
    assert.deepEqual(formVisits.map((r) => [r.status, r.connection]), Array(4).fill([302, 'close']), 'visits begun before SIGTERM are redirected');
    assert.equal((await acrossAnswer).status, 302, 'a request written across the signal is answered');
    assert.equal(await across.ended, 'end', 'its connection is then closed cleanly, not reset');
    assert.equal(await idle.ended, 'end', 'an idle keep-alive connection is closed cleanly, not reset');
    // The load's own requests: answered as usual, or refused once the listener is closed
    // (ECONNREFUSED: a connection the server never accepted). Never a reset, a closed socket or a
    // 503 for a request sent on a connection the server had accepted, with one exception that no
    // HTTP/1.1 server can avoid (ADR 0157): a keep-alive connection idle for the server's whole
    // second of grace is closed, and a client that only then writes on it (this process, stalled
    // that long by a loaded machine) finds it closed, which a browser retries (RFC 9112 9.3.1).
    // So such failures pass only when this process was stalled for at least that second.
    const stalledMs = stalls.longestMs;
    const keepAliveRace = (k: string) => stalledMs >= DRAIN_GRACE_MS && /other side closed|ECONNRESET/.test(k);
    const visitTally = tally(visited);
    for (const k of Object.keys(visitTally)) {
      assert.ok(k === '302' || /ECONNREFUSED/.test(k) || keepAliveRace(k), `visit outcome ${k}: ${JSON.stringify(visitTally)}; this process stalled at most ${stalledMs.toFixed(0)} ms`);
    }
    // The race closes a connection once: at most one such failure per connection of the load.
    const raced = (outcomes: unknown[]) => outcomes.filter((o) => o instanceof Error && keepAliveRace(o.message)).length;
    assert.ok(raced(visited) <= 30, `at most one closed connection per visiting client: ${raced(visited)}`);
    assert.ok(raced(apiOutcomes) <= 3, `at most one closed connection per API client: ${raced(apiOutcomes)}`);
    const apiTally = tally(apiOutcomes);
    for (const k of Object.keys(apiTally)) {
      assert.ok(k === '201' || /ECONNREFUSED/.test(k) || keepAliveRace(k), `API outcome ${k}: ${JSON.stringify(apiTally)}; this process stalled at most ${stalledMs.toFixed(0)} ms`);
    }
    // The load ran across the signal: requests it had in flight then were answered.
    assert.ok(visited.slice(visitsAtSignal).includes(302), `visits in flight at the signal are answered: ${JSON.stringify(tally(visited.slice(visitsAtSignal)))}`);
    assert.ok(apiOutcomes.slice(apiAtSignal).includes(201), `API requests in flight at the signal are answered: ${JSON.stringify(tally(apiOutcomes.slice(apiAtSignal)))}`);
    // Every 302 is a counted visit: the load's, the form posts and the three on the hand-driven connections.
    const redirected = (visitTally['302'] ?? 0) + formVisits.length + 3;
    assert.ok(redirected > formVisits.length + 3, 'the load was served');

    // Restarted on the same data: every counted visit is there, and every link it answered 201 for.
    again = await startServer({ dataDir, env });
    const api2 = createHopClient({ baseUrl: again.url, token: t.token });
    // Written at shutdown, counted by the aggregation job a moment after the restart (a link's
    // `clicks` may lag by a few seconds); then it must not move past one click per 302.
    await eventually(async () => {
      const { data } = await api2.call('getLink', { params: { ...ws, linkId: link.id } });
      return data.clicks >= redirected ? true : undefined;
    }, 20_000, `${redirected} clicks counted after the restart`);
    // Analytics add the clicks not yet rolled up: a click written twice would show there at once.
    const { data: analytics } = await api2.call('getLinkAnalytics', { params: { ...ws, linkId: link.id } });
    assert.equal(analytics.totalClicks, redirected, 'one click in the log per 302, written at shutdown');
    const { data } = await api2.call('getLink', { params: { ...ws, linkId: link.id } });
    assert.equal(data.clicks, redirected, 'one click counted per 302');
    for (const c of creations) {
      const { data: made } = await api2.call('getLink', { params: { ...ws, linkId: JSON.parse(c.body).data.id } });
      assert.match(made.title ?? '', /^begun /);
    }
    for (const id of created) await api2.call('getLink', { params: { ...ws, linkId: id } });
  } finally {
    await stopLoads();
    for (const c of connections) c.destroy();
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    if (again) assert.equal(await again.stop(), 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
