// A body declared over the limit is read and answered 413 on an open connection (docs/adr/,
// "A body over the limit is read, then answered 413"), yet during a graceful stop that answer still
// says `Connection: close`, as every answer after SIGTERM must (connection-drain.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { connectionDrain } from '../../server/src/api/connection-drain.js';
import { inProcessApi } from '../helpers/in-process.js';

/** Writes `request` and resolves with everything the server sends until it closes (cleanly). */
function exchange(socket: Socket, request: string | Buffer, untilClose: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!untilClose && /\r\n\r\n[^]*\}$/.test(text)) done();
    };
    const done = () => {
      socket.off('data', onData).off('end', done).off('error', reject);
      resolve(text);
    };
    socket.on('data', onData).once('end', done).once('error', reject);
    socket.write(request);
  });
}

test('during a graceful stop, a body declared over the limit is answered 413 with Connection: close, and the connection ends cleanly', async () => {
  const api = await inProcessApi();
  try {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = api.app.server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    // A keep-alive connection the server has accepted and answered once before the stop.
    const first = await exchange(socket, 'GET /healthz HTTP/1.1\r\nhost: hop.test\r\n\r\n', false);
    assert.match(first, /^HTTP\/1\.1 200/);

    const drain = connectionDrain(api.app.server);
    const stopped = drain.drain();
    await new Promise((r) => setTimeout(r, 50)); // the stop has begun; the connection's grace has not ended
    const body = Buffer.alloc(2 * 1024 * 1024, 'x');
    const answer = await exchange(socket, Buffer.concat([
      Buffer.from(`POST /v1/auth/login HTTP/1.1\r\nhost: hop.test\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`),
      body,
    ]), true);
    assert.match(answer, /^HTTP\/1\.1 413/);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    await stopped;
  } finally {
    await api.close();
  }
});
