import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, eventLoopCpuMs, expectError, Harness, type Fixture } from '../src/index';

/**
 * Video and album passwords (issue 46 §4): guesses are limited per video (or album) and address,
 * 429/9000 with Retry-After, the right password spending nothing; and the hashes run off the event
 * loop, a few at once, so a burst of wrong guesses leaves other requests their speed.
 */

const limit = { perAddress: 3, windowSeconds: 600 };

for (const driver of drivers) {
  describe(`video and album password guesses (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let locked: string;
    let other: string;
    before(async () => {
      h = await Harness.start(driver, { passwordGuessLimit: limit });
      owner = await h.user('Owner');
      locked = await h.video(owner, { privacy: { view: 'password' }, password: 'open sesame' });
      other = await h.video(owner, { privacy: { view: 'password' }, password: 'open sesame' });
    });
    after(() => h?.stop());

    it(`the right password spends nothing; after ${limit.perAddress} wrong ones the video answers 429 with Retry-After, the right password too, until the window passes`, async () => {
      for (let i = 0; i < limit.perAddress + 1; i++) assert.equal((await h.call('GET', `/videos/${locked}?password=open%20sesame`)).status, 200);
      for (let i = 0; i < limit.perAddress; i++) expectError(await h.call('GET', `/videos/${locked}/tags?password=guess${i}`), 403, 3200);
      const refused = await h.call('GET', `/videos/${locked}?password=open%20sesame`);
      expectError(refused, 429, 9000);
      assert.equal(refused.headers.get('retry-after'), String(limit.windowSeconds));
      expectError(await h.call('GET', `/videos/${other}/tags?password=guess`), 403, 3200);
      assert.equal((await h.call('GET', `/videos/${locked}`, { token: owner.token })).status, 200, 'the owner needs no password');
      h.clock.advance(limit.windowSeconds);
      assert.equal((await h.call('GET', `/videos/${locked}?password=open%20sesame`)).status, 200);
    });

    it("a password album's videos count guesses per album", async () => {
      const album = (await h.call('POST', '/me/albums', { token: owner.token, json: { name: 'Locked', description: '', privacy: 'password', password: 'album pw' } })).body.uri;
      for (let i = 0; i < limit.perAddress; i++) expectError(await h.call('GET', `${album}/videos?password=guess${i}`), 403, 3200);
      const refused = await h.call('GET', `${album}/videos?password=album%20pw`);
      expectError(refused, 429, 9000);
      assert.equal(refused.headers.get('retry-after'), String(limit.windowSeconds));
      h.clock.advance(limit.windowSeconds);
      assert.equal((await h.call('GET', `${album}/videos?password=album%20pw`)).status, 200);
    });
  });
}

type Spread = { median: number; p99: number };
const spread = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1], p99: sorted[Math.ceil(sorted.length * 0.99) - 1] };
};

/**
 * Sequential reads of `path` while `more()` (at least one): how many; for each, the event loop's
 * CPU while it was in flight (`loop`, in 10 ms ticks) and its wall-clock time (`wall`), in ms.
 */
async function timeReads(h: Harness, path: string, more: () => boolean): Promise<{ count: number; loop: Spread; wall: Spread }> {
  const loop: number[] = [];
  const wall: number[] = [];
  do {
    const [cpu, started] = [eventLoopCpuMs(), performance.now()];
    assert.equal((await h.call('GET', path)).status, 200);
    wall.push(performance.now() - started);
    loop.push(eventLoopCpuMs() - cpu);
  } while (more());
  return { count: loop.length, loop: spread(loop), wall: spread(wall) };
}

// The event loop is the process's, not the store's: one driver shows it.
describe(`password hashes off the event loop (${drivers[0].name})`, () => {
  let h: Harness;
  let locked: string;
  let open: string;
  before(async () => {
    h = await Harness.start(drivers[0], { passwordGuessLimit: { perAddress: 1000, windowSeconds: 600 } });
    const owner = await h.user('Owner');
    locked = await h.video(owner, { privacy: { view: 'password' }, password: 'open sesame' });
    open = await h.video(owner);
  });
  after(() => h?.stop());

  // scryptSync on the event loop held every read behind each hash: p99 1.6 s on the shared test machine.
  // What held a read is CPU the event loop spent while it was in flight (a hash is tens of ms of it),
  // so that is measured: on a loaded machine a read also waits for a CPU, which its wall-clock time
  // shows (reported) but its event loop's CPU does not. A main-thread garbage collection can still
  // land in one read, so a burst is measured up to three times and one clean burst passes; hashing on
  // the event loop fails all three.
  it('50 concurrent wrong video-password guesses leave an ordinary read’s p99 under 50 ms of event-loop CPU', async () => {
    const path = `/videos/${open}`;
    await h.call('GET', path);
    const reports: string[] = [];
    for (let round = 0; round < 3; round++) {
      let guessing = true;
      const guesses = Promise.all(
        Array.from({ length: 50 }, (_, i) => fetch(`${h.server.url}/videos/${locked}/tags?password=guess${round}-${i}`).then(async (r) => (await r.arrayBuffer(), r.status))),
      ).finally(() => (guessing = false));
      // 200 reads are enough for a p99; more would only take CPU from the (niced) hashing threads.
      let reads = 0;
      const during = await timeReads(h, path, () => guessing && ++reads < 200);
      assert.deepEqual([...new Set(await guesses)], [403], 'every guess was hashed and refused');
      const report = `reads during the guesses: ${during.count}; event-loop CPU median ${during.loop.median} ms, p99 ${during.loop.p99} ms; wall median ${during.wall.median.toFixed(1)} ms, p99 ${during.wall.p99.toFixed(1)} ms`;
      console.log(`# ${report}`);
      assert.ok(during.count >= 20, report);
      reports.push(report);
      if (during.loop.p99 < 50) return;
    }
    assert.fail(`p99 reached 50 ms of event-loop CPU in every burst: ${reports.join('; ')}`);
  });
});
