// A loopback TCP proxy in front of the run's PostgreSQL, for a server whose notifications a test
// must hold back: what the server's LISTEN connection would receive waits in the proxy until the
// test releases it, so a test can put a request between a change and the moment another process
// hears of it, deterministically, as load does by chance.
import { createServer, connect, type Socket } from 'node:net';

interface Piped {
  client: Socket;
  upstream: Socket;
  /** The connection that sent LISTEN: the one notifications arrive on. */
  listening: boolean;
  held: Buffer[];
}

export interface PgProxy {
  /** DATABASE_URL for a server that connects through the proxy. */
  url: string;
  /** From now on, what PostgreSQL sends the listening connection waits here. */
  holdNotifications(): void;
  /** Sends on what was held, in order, and stops holding. */
  releaseNotifications(): void;
  close(): Promise<void>;
}

export async function startPgProxy(databaseUrl: string): Promise<PgProxy> {
  const target = new URL(databaseUrl);
  const pipes = new Set<Piped>();
  let holding = false;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const p: Piped = { client, upstream, listening: false, held: [] };
    pipes.add(p);
    client.on('data', (d) => {
      if (!p.listening && /\blisten\s+"/i.test(d.toString('latin1'))) p.listening = true;
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (p.listening && holding) p.held.push(d);
      else client.write(d);
    });
    const end = () => {
      pipes.delete(p);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    holdNotifications() {
      if (![...pipes].some((p) => p.listening)) throw new Error('no connection through the proxy has sent LISTEN');
      holding = true;
    },
    releaseNotifications() {
      holding = false;
      for (const p of pipes) for (const d of p.held.splice(0)) p.client.write(d);
    },
    async close() {
      for (const p of pipes) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
