// A real webhook receiver for tests: HTTP, or HTTPS with a throw-away certificate made by openssl.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { scratchDir } from './scratch-dir.mjs';

export interface ReceivedRequest {
  at: number;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A self-signed certificate for localhost and 127.0.0.1; pass `caFile` as NODE_EXTRA_CA_CERTS. */
export function throwAwayCertificate() {
  // One certificate per test run (made by test/run.mjs), trusted by every server of the run: on
  // PostgreSQL any server's dispatcher may deliver, as in a fleet that shares a trust store.
  const shared = process.env.HOP_TEST_TLS_DIR;
  if (shared) {
    const cert = join(shared, 'cert.pem');
    return { key: readFileSync(join(shared, 'key.pem')), cert: readFileSync(cert), caFile: cert };
  }
  const dir = scratchDir('hop-cert-');
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  return { key: readFileSync(key), cert: readFileSync(cert), caFile: cert };
}

/** An answer's status, or its status and headers (a 429 with Retry-After). */
export type Answer = number | { status: number; headers: Record<string, string> };

/**
 * Starts a receiver; `respond` decides each answer (default 200). `received` holds every request
 * in arrival order.
 */
export async function startReceiver(opts: { tls?: { key: Buffer; cert: Buffer }; respond?: (req: ReceivedRequest) => Answer | Promise<Answer> } = {}) {
  const received: ReceivedRequest[] = [];
  let respond = opts.respond ?? (() => 200);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const r = { at: Date.now(), path: req.url ?? '/', headers: req.headers, body };
      received.push(r);
      const answer = await respond(r);
      if (typeof answer === 'number') res.statusCode = answer;
      else res.writeHead(answer.status, answer.headers);
      res.end('ok');
    });
  };
  const server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${opts.tls ? 'localhost' : '127.0.0.1'}:${port}`,
    received,
    setResponder(fn: (req: ReceivedRequest) => Answer | Promise<Answer>) {
      respond = fn;
    },
    // The dispatcher keeps its connections alive: end them, or close() waits for their timeout.
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
