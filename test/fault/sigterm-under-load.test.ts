// SIGTERM under load: requests the server had begun before the signal are answered, and every
// visit it counted is in the database once it has exited (the click buffer is flushed, not lost).
// A request is surely begun when the server has read its headers and its body is still coming:
// those are sent here by hand, half before the signal and half after. The server proves it has read
// the headers by answering `Expect: 100-continue`; a sleep cannot prove it on a loaded machine,
// where a connection the server had not read yet is idle to it, and closing it is no fault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHopClient } from '@hop/shared/client';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { browserVisit, sleep, startLoad, stopLoads, tally } from '../helpers/load.js';

/**
 * A POST whose headers go now, the first half of its body once the server has read them (its
 * `100 Continue`: `begun` resolves), and the rest on `finish()`.
 */
function halfSentPost(baseUrl: string, path: string, headers: Record<string, string>, body: string) {
  const u = new URL(baseUrl);
  const bytes = Buffer.from(body);
  const req = httpRequest({
    host: u.hostname, port: u.port, path, method: 'POST', agent: false,
    headers: { ...headers, 'content-length': String(bytes.length), expect: '100-continue' },
  });
  const begun = new Promise<void>((resolve) => req.once('continue', () => {
    req.write(bytes.subarray(0, bytes.length >> 1));
    resolve();
  }));
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
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
  };
}

test('SIGTERM under load: requests begun before it are answered, and every counted visit is written', { timeout: 90_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-fault-term-'));
  // The longest flush interval: at the signal, up to a second of visits is only in memory.
  const env = { HOP_CLICK_FLUSH_MS: '1000', HOP_ADMIN_TOKEN: ADMIN_TOKEN };
  const server = await startServer({ dataDir, env });
  let again: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const t = await team('pro', server.url);
    const ws = { workspaceId: t.workspaceId };
    const { data: link } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/sigterm' } });
    const path = new URL(link.shortUrl).pathname;
    const shortUrl = `${server.url}${path}`;

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
    await Promise.all([...slowCreates, ...slowVisits].map((r) => r.begun)); // the server has begun them

    server.child.kill('SIGTERM');
    await sleep(300); // the server is closing: it waits for the requests above
    const creations = await Promise.all(slowCreates.map((r) => r.finish()));
    const formVisits = await Promise.all(slowVisits.map((r) => r.finish()));
    const code = await server.exited;
    const visited = await visits.stop();
    const apiOutcomes = await api.stop();

    assert.equal(code, 0, `exit code on SIGTERM\n${server.output().slice(-3000)}`);
    assert.deepEqual(creations.map((r) => r.status), [201, 201, 201, 201], 'link creations begun before SIGTERM are answered');
    assert.deepEqual(formVisits.map((r) => r.status), [302, 302, 302, 302], 'visits begun before SIGTERM are redirected');
    // The load's own requests: answered as usual, or refused as the server closes (503, or a
    // closed connection for one it had not read yet); never a failure of a request it took.
    const visitTally = tally(visited);
    for (const k of Object.keys(visitTally)) assert.ok(k === '302' || k === '503' || k.startsWith('error: '), `visit outcome ${k}: ${JSON.stringify(visitTally)}`);
    const apiTally = tally(apiOutcomes);
    for (const k of Object.keys(apiTally)) assert.ok(k === '201' || k === '503' || k.startsWith('error: '), `API outcome ${k}: ${JSON.stringify(apiTally)}`);
    const redirected = (visitTally['302'] ?? 0) + formVisits.length;
    assert.ok(redirected > formVisits.length, 'the load was served');

    // Restarted on the same data: every counted visit is there, and every link it answered 201 for.
    again = await startServer({ dataDir, env });
    const api2 = createHopClient({ baseUrl: again.url, token: t.token });
    // Written at shutdown, counted by the aggregation job a moment after the restart (a link's
    // `clicks` may lag by a few seconds); then it must not move past one click per 302.
    await eventually(async () => {
      const { data } = await api2.call('getLink', { params: { ...ws, linkId: link.id } });
      return data.clicks >= redirected ? true : undefined;
    }, 20_000, `${redirected} clicks counted after the restart`);
    await sleep(1500);
    const { data } = await api2.call('getLink', { params: { ...ws, linkId: link.id } });
    assert.equal(data.clicks, redirected, 'one click per 302, written at shutdown');
    for (const c of creations) {
      const { data: made } = await api2.call('getLink', { params: { ...ws, linkId: JSON.parse(c.body).data.id } });
      assert.match(made.title ?? '', /^begun /);
    }
    for (const id of created) await api2.call('getLink', { params: { ...ws, linkId: id } });
  } finally {
    await stopLoads();
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    if (again) assert.equal(await again.stop(), 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
