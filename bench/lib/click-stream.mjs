// A click stream into a Hop database from outside the Hop process: every second, one COPY of
// `rate` visits of the database's links, shaped like bench/redirect.mjs's (one address, six user
// agents, five referrers), written the way the server writes its own (the server's copyRows and
// appendClicks). The Hop server on that database rolls them up with its aggregation job, as it
// would its own visits. bench/redirect.mjs runs it beside the bare Fastify round, so that the
// baseline shares the two cores with the same PostgreSQL work as Hop does: the Hop process's CPU
// is then compared with a bare 302's under the same co-tenant (docs/performance.md).
//
// As a module: startClickStream(databaseUrl, rate) → { stop() → visits written }. As a script (the
// child process it starts): node bench/lib/click-stream.mjs <databaseUrl> <rate>.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pick, USER_AGENTS, REFERRERS } from './servers.mjs';

const self = fileURLToPath(import.meta.url);

export async function startClickStream(databaseUrl, rate) {
  const child = spawn(process.execPath, [self, databaseUrl, String(Math.round(rate))], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`click stream exited (${code}) before it started`)));
  });
  return {
    pid: child.pid,
    /** Stops it once the batch it is writing is in; resolves with the number of visits written. */
    stop: () => new Promise((resolve, reject) => {
      child.once('exit', (code) => {
        const written = Number(output.trim().split('\n').at(-1));
        if (code === 0 && Number.isInteger(written)) resolve(written);
        else reject(new Error(`click stream failed (${code}): ${output}`));
      });
      child.kill('SIGTERM');
    }),
  };
}

async function run(databaseUrl, rate) {
  const dist = new URL('../../server/dist/', import.meta.url);
  const { openDatabase } = await import(new URL('db/open.js', dist));
  const { appendClicks, copyRows } = await import(new URL('domain/clicks/click-log.js', dist));
  const { agentOf, referrerDomainOf } = await import(new URL('domain/clicks/visit-details.js', dist));
  const db = await openDatabase({ databaseUrl, dataDir: '' });
  const links = await db.query('select id, workspace_id, slug, domain, url from links');
  if (links.length === 0) throw new Error('no links to click');
  // One address: one visitor per user agent, as in the redirect benchmark.
  const visitors = USER_AGENTS.map((ua, i) => ({ agent: agentOf(ua), hash: `bench-visitor-${i}`.padEnd(32, '0') }));
  let stopping = false;
  let written = 0;
  process.once('SIGTERM', () => (stopping = true));
  process.stdout.write('ready\n');
  let next = Date.now();
  while (!stopping) {
    const at = new Date();
    const visits = Array.from({ length: rate }, () => {
      const link = pick(links);
      const visitor = pick(visitors);
      return {
        linkId: link.id, slug: link.slug, domain: link.domain, destination: link.url, target: 'default',
        workspaceId: link.workspace_id, qrId: null, source: 'link', at, visitorHash: visitor.hash,
        country: null, city: null, device: visitor.agent.device, browser: visitor.agent.browser, os: visitor.agent.os,
        referrer: referrerDomainOf(pick(REFERRERS)), isBot: visitor.agent.isBot, counted: false,
      };
    });
    const rows = await copyRows(visits);
    await db.transaction((tx) => appendClicks(tx, rows));
    written += visits.length;
    next += 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
  }
  await db.close();
  process.stdout.write(`${written}\n`);
}

if (process.argv[1] === self) {
  run(process.argv[2], Number(process.argv[3])).catch((err) => {
    process.stderr.write(`click stream: ${err.stack ?? err}\n`);
    process.exit(1);
  });
}
