import ipaddr from 'ipaddr.js';
import { canonicalIp, thisMachine, type ThisMachine } from '../net/this-machine.js';

/**
 * Whether a destination URL is Hop itself, in any spelling, so a link cannot point at a short
 * domain and loop (one visit of such a link made 21 clicks before the browser gave up).
 *
 * The redirector serves the default domain's slugs on any Host, so "itself" is wider than the
 * configured names: the same name in any case or with a trailing dot, and, when a configured host
 * is this machine, every other way of naming this machine (net/this-machine.ts: loopback
 * addresses and names, its host name, names the hosts file gives it, its interfaces' addresses).
 * WHATWG parsing has already turned 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1. A
 * configured host with a port matches that port only (localhost:4000 is another program); one
 * without a port (behind a proxy) matches every port.
 */
export function createOwnHostCheck(hosts: string[], opts: { machine?: ThisMachine } = {}) {
  const machine = opts.machine ?? thisMachine();
  const entries = hosts.map((h) => {
    const u = new URL(`http://${h}`);
    const name = trimDot(u.hostname);
    return { name, port: u.port, self: machine.isThisMachine(name) };
  });

  /** Whether `url` (already WHATWG-normalised) points at one of the configured hosts. */
  return function isOwn(url: URL): boolean {
    const name = trimDot(url.hostname);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const self = machine.isThisMachine(name);
    const sameName = (entryName: string) => entryName === name
      || (ipaddr.isValid(bare(entryName)) && ipaddr.isValid(bare(name)) && canonicalIp(bare(entryName)) === canonicalIp(bare(name)));
    return entries.some((e) => (e.port === '' || e.port === port) && (sameName(e.name) || (e.self && self)));
  };
}

const trimDot = (name: string) => name.toLowerCase().replace(/\.+$/, '');
const bare = (name: string) => name.replace(/^\[(.*)\]$/, '$1');
