import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness, type Fixture } from '../src/index';

/**
 * Plays are the views the player reports (issue 49), counted once per viewer per video per half
 * hour (issue 46): a viewer replaying a clip does not inflate stats.plays, and fetching the file
 * is no play. The viewer is the signed-in user, else the player's cookie, else the address and
 * user agent.
 */
for (const driver of drivers) {
  describe(`plays: once per viewer per half hour (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let id: string;
    const plays = async (): Promise<number> => (await h.call('GET', `/videos/${id}`)).body.stats.plays;
    /** The player's view beacon as a viewer sends it: these headers, and a token when given. */
    const play = async (headers: Record<string, string>, token?: string): Promise<void> => {
      const r = await h.call('POST', `/videos/${id}/beacons`, { form: { type: 'view' }, headers, token });
      assert.equal(r.status, 204, r.text);
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      id = await h.video(alice, { name: 'Looped' });
    });
    after(() => h.stop());

    it('a viewer replaying counts one play, and another after half an hour', async () => {
      const start = await plays();
      for (let i = 0; i < 5; i++) await play({ 'user-agent': 'Looper/1' });
      assert.equal(await plays(), start + 1);
      h.clock.advance(29 * 60);
      await play({ 'user-agent': 'Looper/1' });
      assert.equal(await plays(), start + 1, 'still inside the window');
      h.clock.advance(60 + 1);
      await play({ 'user-agent': 'Looper/1' });
      assert.equal(await plays(), start + 2, 'the window has passed');
    });

    it('tells viewers apart by user, then cookie, then address and user agent', async () => {
      const start = await plays();
      await play({ 'user-agent': 'Other/2' });
      await play({ 'user-agent': 'Other/2' });
      await play({ 'user-agent': 'Other/2', cookie: 'reelbase_viewer=aaaaaaaaaaaaaaaaaaaaaa' });
      await play({ 'user-agent': 'Other/2', cookie: 'reelbase_viewer=aaaaaaaaaaaaaaaaaaaaaa' });
      await play({ 'user-agent': 'Other/2', cookie: 'reelbase_viewer=bbbbbbbbbbbbbbbbbbbbbb' });
      await play({ 'user-agent': 'Other/2' }, bob.token);
      await play({ 'user-agent': 'Third/3' }, bob.token);
      assert.equal(await plays(), start + 4);
    });

    it('the player page gives a browser without one its viewer cookie', async () => {
      const page = await fetch(`${h.server.url}/videos/${id}/player`);
      assert.equal(page.status, 200);
      await page.text();
      assert.match(page.headers.get('set-cookie') ?? '', /^reelbase_viewer=[A-Za-z0-9_-]{22}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=1800$/);
      const again = await fetch(`${h.server.url}/videos/${id}/player`, { headers: { cookie: page.headers.get('set-cookie')!.split(';')[0] } });
      await again.text();
      assert.equal(again.headers.get('set-cookie'), null);
    });
  });
}
