import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4 } from '../net/address-rules.js';

/**
 * Whether a destination URL is Hop itself, in any spelling, so a link cannot point at a short
 * domain and loop (one visit of such a link made 21 clicks before the browser gave up).
 *
 * The redirector serves the default domain's slugs on any Host, so "itself" is wider than the
 * configured names: the same name in any case or with a trailing dot, and, when a configured host
 * is this machine (`localhost`, a loopback address, one of its interface addresses), every other
 * way of writing this machine: 127.0.0.0/8, ::1, 0.0.0.0, `*.localhost`, the interfaces'
 * addresses and IPv6 forms that carry them. WHATWG parsing has already turned 2130706433,
 * 0x7f.1 and 0177.0.0.1 into 127.0.0.1. A configured host with a port matches that port only
 * (localhost:4000 is another program); one without a port (behind a proxy) matches every port.
 */
export function createOwnHostCheck(hosts: string[], opts: { interfaces?: () => string[] } = {}) {
  const machine = new Set((opts.interfaces ?? interfaceAddresses)().map(canonicalIp));
  const entries = hosts.map((h) => {
    const u = new URL(`http://${h}`);
    const name = trimDot(u.hostname);
    return { name, port: u.port, self: isThisMachine(name) };
  });

  function isThisMachine(name: string): boolean {
    if (name === 'localhost' || name.endsWith('.localhost')) return true;
    const bare = name.replace(/^\[(.*)\]$/, '$1');
    if (!ipaddr.isValid(bare)) return false;
    const ip = canonicalIp(bare);
    const range = ipaddr.parse(ip).range();
    return range === 'loopback' || range === 'unspecified' || machine.has(ip);
  }

  /** Whether `url` (already WHATWG-normalised) points at one of the configured hosts. */
  return function isOwn(url: URL): boolean {
    const name = trimDot(url.hostname);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const self = isThisMachine(name);
    const sameName = (entryName: string) => entryName === name
      || (ipaddr.isValid(bare(entryName)) && ipaddr.isValid(bare(name)) && canonicalIp(bare(entryName)) === canonicalIp(bare(name)));
    return entries.some((e) => (e.port === '' || e.port === port) && (sameName(e.name) || (e.self && self)));
  };
}

const trimDot = (name: string) => name.toLowerCase().replace(/\.+$/, '');
const bare = (name: string) => name.replace(/^\[(.*)\]$/, '$1');

/** An IP address as text, IPv6 forms that stand for an IPv4 address (::ffff:a.b.c.d, ::a.b.c.d,
 * NAT64) written as that address. */
function canonicalIp(text: string): string {
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv6') {
    const carried = embeddedIPv4(ip as ipaddr.IPv6);
    if (carried.standsFor) return carried.addresses[0].toString();
  }
  return ip.toString();
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.replace(/%.*$/, '')));
}
