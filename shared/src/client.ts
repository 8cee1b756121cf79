// The typed client with node's transport: the CLI's and the tests'. A browser imports
// `./client-core.ts` and passes its own transport in.
import { createHopClient as createHopClientWith, type HopClientOptions, type Send } from './client-core.js';
import { send } from './http-send.js';

export * from './client-core.js';

/** A client over node:http(s), or over the transport given. */
export function createHopClient(options: HopClientOptions & { send?: Send }) {
  return createHopClientWith({ send, ...options });
}
