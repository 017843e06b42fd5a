import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isoFromMs } from '../src/population/iso-times';
import { isoTime } from '../src/support/time';

describe('isoFromMs', () => {
  it('writes the same text as isoTime, at day and second boundaries and fractions of a millisecond', () => {
    const day = 86_400_000;
    const times = [0, 999, 1000, 59_999, 60_000, day - 1, day, day + 0.5, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2026, 0, 1) - 0.25];
    // A seeded walk over ten years of fractional times.
    for (let t = Date.UTC(2016, 0, 1), i = 0; i < 20_000; i++) times.push((t += ((i * 7919) % 100_003) * 1_579.37));
    for (const ms of times) assert.equal(isoFromMs(ms), isoTime(new Date(ms)), String(ms));
  });
});
