import ipaddr from 'ipaddr.js';

/**
 * The client an address stands for, as every per-address limit and lockout counts it: an IPv4
 * address whole (an IPv4-mapped IPv6 address as the IPv4 address it carries), an IPv6 address by
 * its /64. One IPv6 host or subscriber is routinely given a whole /64 and can pick any of its
 * 2^64 addresses, so counting addresses one by one would let it start a fresh window each time.
 * Anything that is not an address (a test's odd header) is its own key.
 */
export function addressKey(address: string): string {
  const text = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return address;
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv4') return ip.toString();
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}
