import ipaddr from 'ipaddr.js';

/**
 * The address rules, shared by webhook deliveries and QR logos: an outgoing request may only reach
 * a public unicast address. ipaddr.js (MIT) names the special ranges (loopback, private,
 * linkLocal, uniqueLocal, carrierGradeNat, multicast, reserved, 6to4, teredo, ...), so anything it
 * does not call `unicast` is refused, rather than restating the ranges here.
 *
 * IPv6 forms that carry an IPv4 address are unwrapped and judged by what they carry too:
 * `[::127.0.0.1]` (IPv4-compatible, which ipaddr.js calls unicast) reaches 127.0.0.1 on many
 * stacks, and a NAT64 gateway turns `64:ff9b::a9fe:a9fe` into 169.254.169.254.
 */

/** Cloud metadata services, refused even when HOP_ALLOW_PRIVATE_URLS lifts the other rules:
 * all of IPv4 link-local (AWS, GCP, Azure, OCI, DigitalOcean at .169.254; ECS/EKS at .170.x),
 * AWS's IPv6 fd00:ec2::/32 and Alibaba's 100.100.100.200. No webhook or logo lives there. */
const METADATA_RANGES = ['169.254.0.0/16', 'fd00:ec2::/32', '100.100.100.200/32'].map((r) => ipaddr.parseCIDR(r));

export type AddressVerdict = { allowed: true } | { allowed: false; why: string; metadata?: true };

type IP = ipaddr.IPv4 | ipaddr.IPv6;

const v4 = (hi: number, lo: number) => ipaddr.fromByteArray([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]) as ipaddr.IPv4;

/** The IPv4 addresses an IPv6 address carries, with whether it stands for that address alone. */
export function embeddedIPv4(ip: ipaddr.IPv6): { addresses: ipaddr.IPv4[]; standsFor: boolean } {
  const p = ip.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (RFC 6145), ::a.b.c.d (IPv4-compatible, deprecated
  // but still routed as the IPv4 address by some stacks; :: and ::1 are not IPv4 addresses).
  if (zeros(0, 5) && (p[5] === 0xffff || (p[5] === 0 && (p[6] !== 0 || p[7] > 1)))) return { addresses: [v4(p[6], p[7])], standsFor: true };
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return { addresses: [v4(p[6], p[7])], standsFor: true };
  // NAT64: 64:ff9b::/96 (well-known) and 64:ff9b:1::/48 (local use, RFC 8215).
  // The local-use prefix may embed at other offsets: its last 32 bits are judged, then the range.
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return { addresses: [v4(p[6], p[7])], standsFor: true };
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) return { addresses: [v4(p[6], p[7])], standsFor: false };
  // 6to4 (2002::/16) carries the relay's IPv4 address in bits 16-47.
  if (p[0] === 0x2002) return { addresses: [v4(p[1], p[2])], standsFor: false };
  // Teredo (2001::/32): the server's address in bits 32-63, the client's inverted in the last 32.
  if (p[0] === 0x2001 && p[1] === 0) return { addresses: [v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff)], standsFor: false };
  return { addresses: [], standsFor: false };
}

const isMetadata = (ip: IP) => METADATA_RANGES.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));

/**
 * Whether one IP address (v4 or v6 text) is one an outgoing request may connect to.
 * `allowPrivate` (HOP_ALLOW_PRIVATE_URLS) lifts every rule but the metadata one.
 */
export function checkAddress(address: string, opts: { allowPrivate?: boolean } = {}): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, why: `"${address}" is not an IP address` };
  const ip = ipaddr.parse(address);
  const normal = ip.toString();
  const carried = ip.kind() === 'ipv6' ? embeddedIPv4(ip as ipaddr.IPv6) : { addresses: [], standsFor: false };
  for (const a of [ip, ...carried.addresses]) {
    if (isMetadata(a)) return { allowed: false, why: `${normal === a.toString() ? normal : `${normal} carries ${a}, which`} is a cloud metadata address`, metadata: true };
  }
  if (opts.allowPrivate) return { allowed: true };
  for (const a of carried.addresses) {
    if (a.range() !== 'unicast') return { allowed: false, why: `${normal} carries ${a}, a ${a.range()} address` };
  }
  // Mapped, IPv4-compatible and NAT64 addresses reach the IPv4 address they carry, which passed.
  if (carried.standsFor) return { allowed: true };
  const range = ip.range();
  if (range !== 'unicast') return { allowed: false, why: `${normal} is a ${range} address` };
  return { allowed: true };
}
