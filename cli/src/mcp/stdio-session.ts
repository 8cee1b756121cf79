import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCNotification, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's stdio transport, keeping count of the requests read and not yet answered (a
 * cancelled one is never answered, so it leaves the count too).
 */
class CountingStdioTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  readonly #inner = new StdioServerTransport();
  readonly #open = new Set<RequestId>();
  #idle: (() => void)[] = [];

  constructor() {
    this.#inner.onmessage = (message: JSONRPCMessage) => {
      if (isJSONRPCRequest(message)) this.#open.add(message.id);
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') this.#settle(message.params?.requestId as RequestId);
      this.onmessage?.(message);
    };
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => this.onclose?.();
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.#inner.send(message);
    if ('id' in message && !('method' in message)) this.#settle(message.id);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Resolves once every request read so far has its answer written. */
  answered(): Promise<void> {
    return this.#open.size ? new Promise((resolve) => this.#idle.push(resolve)) : Promise.resolve();
  }

  #settle(id: RequestId | undefined): void {
    if (id === undefined || !this.#open.delete(id) || this.#open.size) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}

/**
 * Serves `server` on stdin and stdout until the client closes stdin, then answers what it has
 * already asked: `hop` exits as soon as its command returns, which would cut those answers off.
 */
export async function serveOnStdio(server: McpServer): Promise<void> {
  const transport = new CountingStdioTransport();
  const ended = new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));
  await server.connect(transport);
  await ended;
  await transport.answered();
  await server.close();
}
