import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressGroup, memoryRateLimiter, rateKey } from '../src/engine/rate-limit';

describe('memoryRateLimiter', () => {
  const at = (iso: string) => new Date(iso);

  it('counts per key in windows aligned on the clock, and starts every key afresh in the next window', () => {
    const limiter = memoryRateLimiter({ max: 2, windowSeconds: 60 });
    const reset = at('2026-01-02T03:05:00Z');
    assert.deepEqual(limiter.take('a', at('2026-01-02T03:04:05Z')), { limit: 2, remaining: 1, reset, allowed: true });
    assert.deepEqual(limiter.take('a', at('2026-01-02T03:04:59Z')), { limit: 2, remaining: 0, reset, allowed: true });
    assert.deepEqual(limiter.take('a', at('2026-01-02T03:04:59.999Z')), { limit: 2, remaining: 0, reset, allowed: false });
    assert.deepEqual(limiter.take('b', at('2026-01-02T03:04:59Z')), { limit: 2, remaining: 1, reset, allowed: true });
    assert.deepEqual(limiter.take('a', at('2026-01-02T03:05:00Z')), { limit: 2, remaining: 1, reset: at('2026-01-02T03:06:00Z'), allowed: true });
  });
});

describe('rateKey and addressGroup', () => {
  it('keys a valid token by its hash, anyone else by address; in-process callers share one key', () => {
    assert.equal(rateKey('ab12', '10.0.0.1'), 'token:ab12');
    assert.equal(rateKey(null, '10.0.0.1'), 'address:10.0.0.1');
    assert.equal(rateKey(null, undefined), 'address:local');
  });

  it('groups IPv6 addresses by /64 and unwraps IPv4-mapped ones', () => {
    assert.deepEqual(
      ['192.0.2.7', '::ffff:192.0.2.7', '2001:db8:1:2:3:4:5:6', '2001:DB8:0001:0002::9', '2001:db8::1', '::1', 'fe80::1%eth0', '::ffff:0:10.0.0.1', '1:2:3:4:5:6:1.2.3.4'].map(addressGroup),
      ['192.0.2.7', '192.0.2.7', '2001:db8:1:2::/64', '2001:db8:1:2::/64', '2001:db8::/64', '::/64', 'fe80::/64', '::/64', '1:2:3:4::/64'],
    );
  });
});
