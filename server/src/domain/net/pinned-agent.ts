import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';

/**
 * An undici agent that connects only to `address`, whatever the host name resolves to by then:
 * the address that passed the rules is the one used (no DNS rebinding). TLS still checks the
 * certificate against the URL's host name.
 */
export function pinnedAgent(address: { address: string; family: number }, timeoutMs: number, keepAliveMs?: number): Agent {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  return new Agent({
    connect: { lookup, timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs,
    ...(keepAliveMs ? { keepAliveTimeout: keepAliveMs, keepAliveMaxTimeout: keepAliveMs } : {}),
  });
}
