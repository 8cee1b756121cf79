// A server of its own for the custom-domain tests: the shared test server has no HOP_DNS_SERVERS,
// so this one starts beside a loopback DNS server the test controls. On PostgreSQL runs it shares
// DATABASE_URL with the shared server (names are unique per test); else it has its own data dir.
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServer } from './start-server.mjs';
import { startDnsServer, type TestDnsServer } from './dns-server.js';
import { BROWSER_UA } from './api.js';

export interface DomainServer {
  url: string;
  port: number;
  /** The default short domain, a name (not localhost) so that Host routing is exercised. */
  shortDomain: string;
  /** Host names the service owns, which no workspace may add. */
  shortHost: string;
  apiHost: string;
  dns: TestDnsServer;
  stop(): Promise<number>;
}

export async function startDomainServer(): Promise<DomainServer> {
  const dns = await startDnsServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-domains-'));
  const port = await freePort();
  const shortHost = 'short.hop-test.dev';
  const apiHost = 'api.hop-test.dev';
  const server = await startServer({
    dataDir,
    port,
    env: {
      HOP_DNS_SERVERS: dns.address,
      HOP_SHORT_DOMAIN: `${shortHost}:${port}`,
      HOP_SHORT_SCHEME: 'http',
      HOP_BASE_URL: `http://${apiHost}:${port}`,
    },
  });
  return {
    url: server.url,
    port,
    shortDomain: `${shortHost}:${port}`,
    shortHost,
    apiHost,
    dns,
    async stop() {
      const code = await server.stop();
      await dns.close();
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** A visit to `path` on the server at `url`, sent with `Host: host` as a browser would send it. */
export function visitAs(url: string, host: string, path: string): Promise<{ status: number; location?: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers: { host, 'user-agent': BROWSER_UA.desktopChrome, accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}
