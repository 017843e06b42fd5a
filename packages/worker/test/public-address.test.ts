import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPublicAddress } from '../src/public-address';

/** Addresses a resolver or a URL parser may hand the outbound policy, and whether it may connect. */
const table: [address: string, isPublic: boolean, why: string][] = [
  ['93.184.215.14', true, 'global IPv4'],
  ['8.8.8.8', true, 'global IPv4'],
  ['2606:4700:4700::1111', true, 'global IPv6'],
  ['2a00:1450:4001:80b::200e', true, 'global IPv6'],
  ['::ffff:8.8.8.8', true, 'IPv4-mapped, of a global address'],
  ['::ffff:808:808', true, 'IPv4-mapped as the URL parser writes it'],
  ['127.0.0.1', false, 'loopback'],
  ['127.255.255.254', false, 'loopback /8'],
  ['127.1', false, 'loopback, short form'],
  ['2130706433', false, 'loopback, one number'],
  ['0177.0.0.1', false, 'loopback, octal'],
  ['0x7f.0.0.1', false, 'loopback, hex'],
  ['::1', false, 'IPv6 loopback'],
  ['0.0.0.0', false, 'unspecified (Linux connects it to the host itself)'],
  ['0.1.2.3', false, '0.0.0.0/8'],
  ['::', false, 'IPv6 unspecified'],
  ['10.0.0.1', false, 'private'],
  ['172.16.0.1', false, 'private'],
  ['172.31.255.255', false, 'private'],
  ['192.168.1.1', false, 'private'],
  ['100.64.0.1', false, 'carrier-grade NAT'],
  ['169.254.169.254', false, 'link-local: the cloud metadata service'],
  ['fe80::1', false, 'IPv6 link-local'],
  ['fe80::1%eth0', false, 'IPv6 link-local with a zone'],
  ['fc00::1', false, 'unique-local'],
  ['fd12:3456:789a::1', false, 'unique-local'],
  ['fec0::1', false, 'site-local (deprecated, still routed by some)'],
  ['feff::1', false, 'site-local /10'],
  ['224.0.0.1', false, 'multicast'],
  ['ff02::1', false, 'IPv6 multicast'],
  ['255.255.255.255', false, 'broadcast'],
  ['240.0.0.1', false, 'reserved'],
  ['192.0.2.1', false, 'documentation'],
  ['198.18.0.1', false, 'benchmarking'],
  ['2001:db8::1', false, 'IPv6 documentation'],
  ['::ffff:127.0.0.1', false, 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', false, 'IPv4-mapped loopback as the URL parser writes it'],
  ['::ffff:10.0.0.1', false, 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', false, 'IPv4-mapped metadata service'],
  ['::ffff:0:0', false, 'IPv4-mapped 0.0.0.0'],
  ['::127.0.0.1', false, 'IPv4-compatible loopback'],
  ['::7f00:1', false, 'IPv4-compatible loopback, hex'],
  ['::a9fe:a9fe', false, 'IPv4-compatible metadata service'],
  ['::8.8.8.8', true, 'IPv4-compatible, of a global address'],
  ['::ffff:0:7f00:1', false, 'IPv4-translated (RFC 6145)'],
  ['64:ff9b::7f00:1', false, 'NAT64 of loopback'],
  ['64:ff9b::8.8.8.8', false, 'NAT64 is refused whole'],
  ['64:ff9b:1::a00:1', false, 'local-use NAT64 (RFC 8215)'],
  ['2002:7f00:1::1', false, '6to4 (embeds 127.0.0.1)'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false, 'Teredo'],
  ['localhost', false, 'a name is not an address'],
  ['', false, 'empty'],
  ['[::1]', false, 'brackets are the URL’s, not the address’s'],
];

describe('isPublicAddress: which resolved addresses the outbound policy connects to', () => {
  for (const [address, isPublic, why] of table) {
    it(`${JSON.stringify(address)} → ${isPublic ? 'public' : 'refused'} (${why})`, () => {
      assert.equal(isPublicAddress(address), isPublic);
    });
  }
});
