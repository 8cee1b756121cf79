import ipaddr from 'ipaddr.js';

/**
 * The address rules of CONTRACT 9, shared by webhook deliveries and QR logos: an outgoing request
 * may only reach a public unicast address. ipaddr.js (MIT) names the special ranges (loopback,
 * private, linkLocal, uniqueLocal, carrierGradeNat, multicast, reserved, 6to4, teredo, ...), so
 * anything it does not call `unicast` is refused, rather than restating the ranges here.
 */
/** Cloud metadata addresses outside the ranges above (AWS's IPv6 one sits in fd00::/8 anyway). */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

export type AddressVerdict = { allowed: true } | { allowed: false; why: string };

/** Whether one IP address (v4 or v6 text) is one an outgoing request may connect to. */
export function checkAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, why: `"${address}" is not an IP address` };
  let ip = ipaddr.parse(address);
  // ::ffff:10.0.0.1 is 10.0.0.1: judge the IPv4 address it carries.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const normal = ip.toString();
  if (METADATA.has(normal)) return { allowed: false, why: `${normal} is a cloud metadata address` };
  const range = ip.range();
  if (range !== 'unicast') return { allowed: false, why: `${normal} is a ${range} address` };
  return { allowed: true };
}
