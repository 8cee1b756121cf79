import { readFileSync } from 'node:fs';
import { hostname as osHostname, networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4 } from './address-rules.js';

/**
 * The one answer to "is this host this machine?", for every check that needs it: a link whose
 * destination is this machine would loop through the redirector, and a webhook or logo lookup of
 * a loopback name must never leave the machine.
 *
 * This machine is, by name: `localhost` and `*.localhost` (RFC 6761), its own host name
 * (`os.hostname()`), and every name the hosts file gives one of its addresses; by address:
 * 127.0.0.0/8, ::1, the unspecified addresses, its interfaces' addresses, and IPv6 forms that
 * carry any of them. What it reads (host name, hosts file, interfaces) is injected, so tests judge
 * names without resolving or connecting anything.
 */
export interface MachineFacts {
  hostname: () => string;
  /** The hosts file's text (`/etc/hosts`); empty when there is none. */
  hostsFile: () => string;
  interfaces: () => string[];
}

const trimDot = (name: string) => name.toLowerCase().replace(/\.+$/, '');
const bare = (name: string) => name.replace(/^\[(.*)\]$/, '$1');

/** An IP address as text, IPv6 forms that stand for an IPv4 address (::ffff:a.b.c.d, ::a.b.c.d, NAT64) written as that address. */
export function canonicalIp(text: string): string {
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv6') {
    const carried = embeddedIPv4(ip as ipaddr.IPv6);
    if (carried.standsFor) return carried.addresses[0].toString();
  }
  return ip.toString();
}

/** The names of a hosts file, each with the address it gives them. */
function hostsEntries(text: string): { address: string; names: string[] }[] {
  return text.split('\n').flatMap((line) => {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    return address && names.length && ipaddr.isValid(address.replace(/%.*$/, '')) ? [{ address: address.replace(/%.*$/, ''), names: names.map(trimDot) }] : [];
  });
}

function readHostsFile(): string {
  try {
    return readFileSync('/etc/hosts', 'utf8');
  } catch {
    return '';
  }
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.replace(/%.*$/, '')));
}

export const SYSTEM_FACTS: MachineFacts = { hostname: osHostname, hostsFile: readHostsFile, interfaces: interfaceAddresses };

export function createThisMachine(facts: MachineFacts = SYSTEM_FACTS) {
  const addresses = new Set(facts.interfaces().map(canonicalIp));
  const isOwnAddress = (ip: string) => {
    const canonical = canonicalIp(ip);
    const range = ipaddr.parse(canonical).range();
    return range === 'loopback' || range === 'unspecified' || addresses.has(canonical);
  };
  /** Names the hosts file points at loopback: answered without any resolver. */
  const loopbackNames = new Set<string>();
  /** Every name of this machine: loopback ones, its host name, names of its interfaces' addresses. */
  const names = new Set<string>([trimDot(facts.hostname())].filter(Boolean));
  for (const entry of hostsEntries(facts.hostsFile())) {
    if (!isOwnAddress(entry.address)) continue;
    const loopback = ipaddr.parse(canonicalIp(entry.address)).range() === 'loopback';
    for (const name of entry.names) {
      names.add(name);
      if (loopback) loopbackNames.add(name);
    }
  }

  const isLoopbackName = (name: string) => {
    const n = trimDot(name);
    return n === 'localhost' || n.endsWith('.localhost') || loopbackNames.has(n);
  };

  return {
    /** A name that is loopback without asking a resolver: `localhost`, `*.localhost`, hosts-file loopback names. */
    isLoopbackName,
    /** Whether a host (a name, or an IP address, bracketed or not) is this machine. */
    isThisMachine(host: string): boolean {
      const name = trimDot(host);
      if (isLoopbackName(name) || names.has(name)) return true;
      const ip = bare(name);
      return ipaddr.isValid(ip) && isOwnAddress(ip);
    },
  };
}

export type ThisMachine = ReturnType<typeof createThisMachine>;

let system: ThisMachine | undefined;
/** This machine as the system describes it, read once. */
export const thisMachine = (): ThisMachine => (system ??= createThisMachine());
