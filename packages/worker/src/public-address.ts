import ipaddr from 'ipaddr.js';

/**
 * True when reelbase may connect to `address` on a user's say-so: a global unicast address.
 * Everything else is the server's own network or nobody's (SSRF): loopback, private, link-local
 * (169.254.169.254 is the cloud metadata service), carrier-grade NAT, unique-local, site-local,
 * multicast, reserved and documentation ranges, 0.0.0.0 and ::. IPv6 that carries an IPv4 address
 * (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d) is judged by that address; NAT64 (64:ff9b::/96),
 * 6to4 and Teredo reach IPv4 through a translator, so they are refused whole. Not an address: false.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  return embedded ? embedded.range() === 'unicast' : v6.range() === 'unicast';
}

/** The IPv4 address an IPv4-mapped (::ffff:0:0/96) or IPv4-compatible (::/96) address stands for. */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  // Compatible: the first 96 bits are zero (:: and ::1 fall here too, as 0.0.0.0 and 0.0.0.1: refused).
  const bytes = ip.toByteArray();
  return bytes.slice(0, 12).every((b) => b === 0) ? (ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4) : null;
}
