import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { foldAnalytics, gte } from '@reelbase/core';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

type Row = Record<string, unknown> & { views: number; start_date: string; end_date: string };

/**
 * Analytics from the player's beacons (issue 49): beacons posted as the player sends them, the
 * rollup job run on the test clock, reports read back per dimension and interval.
 */
for (const driver of drivers) {
  describe(`analytics: beacons, rollups, GET /me/analytics (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let first: string;
    let second: string;
    const beacon = async (video: string, form: Record<string, string>, headers: Record<string, string>): Promise<void> => {
      const r = await h.call('POST', `/videos/${video}/beacons`, { form, headers });
      assert.equal(r.status, 204, r.text);
    };
    /** A viewer's whole watch: load, play, heartbeats, and the end when it came. */
    const watch = async (video: string, headers: Record<string, string>, embed: string, seconds: number[], finished: boolean) => {
      await beacon(video, { type: 'impression', embed_domain: embed }, headers);
      await beacon(video, { type: 'view', embed_domain: embed }, headers);
      for (const s of seconds) await beacon(video, { type: 'progress', seconds: String(s), embed_domain: embed }, headers);
      if (finished) await beacon(video, { type: 'finish', embed_domain: embed }, headers);
    };
    const report = async (query: string, token = alice.token): Promise<Row[]> => {
      const r = await h.call('GET', `/me/analytics?from=2026-01-01&to=2026-01-31&${query}`, { token });
      assert.equal(r.status, 200, r.text);
      return r.body.data;
    };
    const pick = (rows: Row[], ...fields: string[]) => rows.map((row) => Object.fromEntries(fields.map((f) => [f, row[f]])));

    before(async () => {
      // Every address is in France here: the country dimension has a value to group by.
      h = await Harness.start(driver, { countryOf: (address) => (address.includes('127.0.0.1') || address === '::1' ? 'FR' : null) });
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      [first, second] = [await h.video(alice, { name: 'First' }), await h.video(alice, { name: 'Second' })];
      for (const id of [first, second]) await h.service.store.update('videos', id, { duration: 10 });

      // Day one (2026-01-02): two viewers of the first video from two sites, one of the second.
      await watch(first, { 'user-agent': desktop }, 'https://a.example/post', [4, 3.5], true);
      await watch(first, { 'user-agent': phone, referer: 'https://b.example/page' }, '', [2], false);
      // The phone plays again within the half hour: no second view.
      await beacon(first, { type: 'view' }, { 'user-agent': phone, referer: 'https://b.example/page' });
      await beacon(second, { type: 'impression', embed_domain: 'a.example' }, { 'user-agent': desktop });
      // Viewers who asked not to be tracked: nothing is kept.
      await watch(first, { 'user-agent': 'Private/1', dnt: '1' }, 'a.example', [9], true);
      await watch(first, { 'user-agent': 'Private/2', 'sec-gpc': '1' }, 'a.example', [9], true);
      await watch(first, { 'user-agent': 'Private/3', referer: `${h.server.url}/videos/${first}/player?dnt=1` }, 'a.example', [9], true);
      h.clock.advance(60);
      assert.equal(await h.settle(), 1, 'one fold for a minute of beacons');

      // Day two: the desktop viewer watches the first video again.
      h.clock.advance(86400);
      await beacon(first, { type: 'view', embed_domain: 'a.example' }, { 'user-agent': desktop });
      await beacon(first, { type: 'progress', seconds: '5', embed_domain: 'a.example' }, { 'user-agent': desktop });
      h.clock.advance(60);
      assert.equal(await h.settle(), 1);
    });
    after(() => h.stop());

    it('stats.plays counts the views, once per viewer per half hour', async () => {
      assert.equal((await h.call('GET', `/videos/${first}`)).body.stats.plays, 3);
      assert.equal((await h.call('GET', `/videos/${second}`)).body.stats.plays, 0);
    });

    it('total: every figure of the month in one row', async () => {
      const r = await h.call('GET', '/me/analytics?from=2026-01-01&to=2026-01-31&dimension=total', { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/json');
      assert.deepEqual(r.body.data, [
        {
          start_date: '2026-01-01',
          end_date: '2026-01-31',
          views: 3,
          impressions: 3,
          // Viewers are told apart within a day: unique figures are the days' sums.
          unique_impressions: 3,
          unique_viewers: 3,
          finishes: 1,
          downloads: 0,
          total_time_watched: 14.5,
          average_time_watched: 4.83,
          average_percent_watched: 48.33,
        },
      ]);
      assert.deepEqual([r.body.total, r.body.page, r.body.per_page], [1, 1, 25]);
    });

    it('video, embed_domain, device_type and country: a row per value', async () => {
      assert.deepEqual(pick(await report('dimension=video'), 'video', 'views', 'impressions', 'finishes', 'total_time_watched'), [
        { video: { uri: `/videos/${first}`, name: 'First' }, views: 3, impressions: 2, finishes: 1, total_time_watched: 14.5 },
        { video: { uri: `/videos/${second}`, name: 'Second' }, views: 0, impressions: 1, finishes: 0, total_time_watched: 0 },
      ]);
      // The phone's page came from its Referer; the player's own page would be none.
      assert.deepEqual(pick(await report('dimension=embed_domain'), 'embed_domain', 'views', 'impressions', 'total_time_watched'), [
        { embed_domain: 'a.example', views: 2, impressions: 2, total_time_watched: 12.5 },
        { embed_domain: 'b.example', views: 1, impressions: 1, total_time_watched: 2 },
      ]);
      assert.deepEqual(pick(await report('dimension=device_type'), 'device_type', 'views', 'impressions'), [
        { device_type: 'desktop', views: 2, impressions: 2 },
        { device_type: 'mobile', views: 1, impressions: 1 },
      ]);
      assert.deepEqual(pick(await report('dimension=country'), 'country', 'views'), [{ country: 'FR', views: 3 }]);
    });

    it('day, week and month intervals: a row per period, clipped to from and to', async () => {
      assert.deepEqual(pick(await report('dimension=total&time_interval=day'), 'start_date', 'end_date', 'views', 'total_time_watched'), [
        { start_date: '2026-01-02', end_date: '2026-01-02', views: 2, total_time_watched: 9.5 },
        { start_date: '2026-01-03', end_date: '2026-01-03', views: 1, total_time_watched: 5 },
      ]);
      // 2026-01-02 is a Friday: its ISO week began on Monday 2025-12-29, before `from`.
      assert.deepEqual(pick(await report('dimension=total&time_interval=week'), 'start_date', 'end_date', 'views'), [{ start_date: '2026-01-01', end_date: '2026-01-04', views: 3 }]);
      assert.deepEqual(pick(await report('dimension=video&time_interval=month&filter_content=/videos/' + first), 'start_date', 'end_date', 'views'), [
        { start_date: '2026-01-01', end_date: '2026-01-31', views: 3 },
      ]);
    });

    it('filters, sorts and pages', async () => {
      assert.deepEqual(pick(await report('dimension=video&filter_embed_domains=b.example'), 'views', 'impressions'), [{ views: 1, impressions: 1 }]);
      assert.deepEqual(pick(await report('dimension=device_type&filter_device_types=mobile'), 'device_type', 'views'), [{ device_type: 'mobile', views: 1 }]);
      assert.deepEqual(pick(await report('dimension=embed_domain&sort=views&direction=asc'), 'embed_domain'), [{ embed_domain: 'b.example' }, { embed_domain: 'a.example' }]);
      const page = await h.call('GET', '/me/analytics?from=2026-01-01&to=2026-01-31&dimension=video&per_page=1&page=2', { token: alice.token });
      assert.deepEqual([page.body.total, page.body.data.length, page.body.data[0].video.uri], [2, 1, `/videos/${second}`]);
      assert.equal(page.body.paging.previous, '/me/analytics?from=2026-01-01&to=2026-01-31&dimension=video&per_page=1&page=1');
      assert.deepEqual(await report('dimension=total&from=2026-02-01&to=2026-02-28'), []);
    });

    it('only the owner, with the stats scope', async () => {
      const mine = await h.call('GET', `/users/${alice.user.id}/analytics?from=2026-01-01&to=2026-01-31&dimension=total`, { token: alice.token });
      assert.equal(mine.body.data[0].views, 3);
      expectError(await h.call('GET', `/users/${alice.user.id}/analytics?from=2026-01-01&to=2026-01-31&dimension=total`, { token: bob.token }), 403, 3200);
      assert.deepEqual(await report('dimension=total', bob.token), []);
      const unscoped = await h.user('Alice without stats', 'public private');
      expectError(await h.call('GET', '/me/analytics?from=2026-01-01&to=2026-01-31&dimension=total', { token: unscoped.token }), 403, 3200);
      expectError(await h.call('GET', '/me/analytics?from=2026-01-01&to=2026-01-31&dimension=total'), 401, 8003);
    });

    it('bad parameters answer 400 naming the field', async () => {
      const bad = (query: string) => h.call('GET', `/me/analytics?${query}`, { token: alice.token });
      expectError(await bad('to=2026-01-31&dimension=total'), 400, 2204, 'from');
      expectError(await bad('from=2026-01-01&to=2026-01-31&dimension=city'), 400, 2204, 'dimension');
      expectError(await bad('from=2026-01-01&to=2026-01-31&dimension=total&time_interval=hour'), 400, 2204, 'time_interval');
      expectError(await bad('from=2026-01-31&to=2026-01-01&dimension=total'), 400, 2204, 'to');
      expectError(await bad('from=2026-01-01&to=2026-01-31&dimension=total&per_page=1001'), 400, 2204, 'per_page');
      expectError(await bad('from=2026-01-01&to=2026-01-31&dimension=total&sort=name'), 400, 2204, 'sort');
      expectError(await bad('from=2026-01-01&to=2026-01-31&dimension=video&filter_content=/users/1'), 400, 2204, 'filter_content');
      expectError(await bad('from=2026-01-01&to=2026-01-31&dimension=device_type&filter_embed_domains=a.example'), 400, 2204, 'filter_embed_domains');
      expectError(await h.call('POST', `/videos/${first}/beacons`, { form: { type: 'stare' } }), 400, 2204, 'type');
      expectError(await h.call('POST', '/videos/999999/beacons', { form: { type: 'view' } }), 404, 5000);
    });

    // Last: it adds plays at the turn of the month, which the cases above do not expect.
    it('whole months come from month rollups, the days at the edges from day rollups; a fold again changes nothing', async () => {
      h.clock.time = Date.parse('2026-01-31T23:00:00Z');
      await beacon(first, { type: 'view' }, { 'user-agent': desktop });
      h.clock.advance(3600);
      await beacon(first, { type: 'view' }, { 'user-agent': phone });
      await beacon(second, { type: 'view' }, { 'user-agent': phone });
      h.clock.advance(60);
      assert.equal(await h.settle(), 2, 'a fold asked at 23:00, another at midnight, past the first one\'s minute');
      const months = async (query: string) => {
        const r = await h.call('GET', `/me/analytics?dimension=video&time_interval=month&${query}`, { token: alice.token });
        assert.equal(r.status, 200, r.text);
        return { total: r.body.total, rows: pick(r.body.data, 'start_date', 'end_date', 'views', 'impressions').map((row, i) => ({ video: r.body.data[i].video.uri, ...row })) };
      };
      const [one, two] = [`/videos/${first}`, `/videos/${second}`];
      // Whole months, paged by the store in date then video order, either way.
      assert.deepEqual(await months('from=2026-01-01&to=2026-02-28'), {
        total: 4,
        rows: [
          { video: one, start_date: '2026-01-01', end_date: '2026-01-31', views: 4, impressions: 2 },
          { video: two, start_date: '2026-01-01', end_date: '2026-01-31', views: 0, impressions: 1 },
          { video: one, start_date: '2026-02-01', end_date: '2026-02-28', views: 1, impressions: 0 },
          { video: two, start_date: '2026-02-01', end_date: '2026-02-28', views: 1, impressions: 0 },
        ],
      });
      assert.deepEqual(await months('from=2026-01-01&to=2026-02-28&direction=desc&per_page=1&page=2'), {
        total: 4,
        rows: [{ video: one, start_date: '2026-02-01', end_date: '2026-02-28', views: 1, impressions: 0 }],
      });
      // Edges: the days of January from the 3rd, of February to the 10th; then January's days and February as a whole month.
      assert.deepEqual(await months('from=2026-01-03&to=2026-02-10'), {
        total: 3,
        rows: [
          { video: one, start_date: '2026-01-03', end_date: '2026-01-31', views: 2, impressions: 0 },
          { video: one, start_date: '2026-02-01', end_date: '2026-02-10', views: 1, impressions: 0 },
          { video: two, start_date: '2026-02-01', end_date: '2026-02-10', views: 1, impressions: 0 },
        ],
      });
      // A partial month before a whole one, page by page across the two, either way.
      const jan = { start_date: '2026-01-03', end_date: '2026-01-31', impressions: 0 };
      const feb = { start_date: '2026-02-01', end_date: '2026-02-28', views: 1, impressions: 0 };
      const edged = [{ video: one, ...jan, views: 2 }, { video: one, ...feb }, { video: two, ...feb }];
      for (const [i, row] of edged.entries()) assert.deepEqual(await months(`from=2026-01-03&to=2026-02-28&per_page=1&page=${i + 1}`), { total: 3, rows: [row] });
      assert.deepEqual(await months('from=2026-01-03&to=2026-02-28&direction=desc&per_page=2&page=2'), { total: 3, rows: [edged[0]] });
      assert.deepEqual(await months('from=2026-01-03&to=2026-02-28&per_page=2&page=3'), { total: 3, rows: [] });
      // A whole month before a partial one, page by page across the two, either way.
      const febEdge = { start_date: '2026-02-01', end_date: '2026-02-10', views: 1, impressions: 0 };
      const tailed = [
        { video: one, start_date: '2026-01-01', end_date: '2026-01-31', views: 4, impressions: 2 },
        { video: two, start_date: '2026-01-01', end_date: '2026-01-31', views: 0, impressions: 1 },
        { video: one, ...febEdge },
        { video: two, ...febEdge },
      ];
      for (const [i, row] of tailed.entries()) assert.deepEqual(await months(`from=2026-01-01&to=2026-02-10&per_page=1&page=${i + 1}`), { total: 4, rows: [row] });
      assert.deepEqual(await months('from=2026-01-01&to=2026-02-10&direction=desc&per_page=3'), { total: 4, rows: [tailed[3], tailed[2], tailed[1]] });
      const spanning = await h.call('GET', '/me/analytics?dimension=total&from=2026-01-03&to=2026-02-28', { token: alice.token });
      assert.deepEqual(pick(spanning.body.data, 'start_date', 'end_date', 'views'), [{ start_date: '2026-01-03', end_date: '2026-02-28', views: 4 }]);

      // Every month row is the sum of its days, for every dimension and value.
      const store = h.service.store;
      const metrics = ['views', 'impressions', 'unique_impressions', 'unique_viewers', 'finishes', 'downloads', 'time_watched', 'duration_watchable'];
      const key = (row: Record<string, unknown>) => JSON.stringify(['video_id', 'month', 'dimension', 'value', ...metrics].map((f) => row[f]));
      const monthRows = async () => (await store.find('analytics_month_rollups', { limit: 1000 })).items.map(key).sort();
      const fromDays = (await store.sumBy('analytics_rollups', ['video_id', 'month', 'dimension', 'value'], metrics)).map(key).sort();
      const folded = await monthRows();
      // A row per video-month for the total, the country, each device and each domain (none: the player on its own):
      // January 7 for the first (2 devices, domains a, b and none), 4 for the second; February 4 each.
      assert.equal(folded.length, 19);
      assert.deepEqual(folded, fromDays);
      // A user's day and month rows are their video rows summed by dimension and value, `rows` counting them.
      const userRows = async (collection: string, period: string) =>
        (await store.find(collection, { limit: 1000 })).items.map((row) => JSON.stringify([row.user_id, row[period], row.dimension, row.value, row.rows, ...metrics.map((m) => row[m])])).sort();
      const summed = async (collection: string, period: string) => {
        const groups = new Map<string, { key: unknown[]; rows: number; sums: number[] }>();
        for (const row of (await store.find(collection, { limit: 1000 })).items) {
          const key = [row.user_id, row[period], row.dimension, row.value];
          const group = groups.get(JSON.stringify(key)) ?? groups.set(JSON.stringify(key), { key, rows: 0, sums: metrics.map(() => 0) }).get(JSON.stringify(key))!;
          group.rows++;
          metrics.forEach((m, i) => (group.sums[i] += row[m] as number));
        }
        return [...groups.values()].map((g) => JSON.stringify([...g.key, g.rows, ...g.sums])).sort();
      };
      const [userDays, userMonths] = [await userRows('analytics_user_days', 'day'), await userRows('analytics_user_months', 'month')];
      assert.deepEqual(userDays, await summed('analytics_rollups', 'day'));
      assert.deepEqual(userMonths, await summed('analytics_month_rollups', 'month'));
      // January: the total, a.example, b.example, none, desktop, mobile, FR; February (two phones): the total, none, mobile, FR.
      assert.equal(userMonths.length, 11);
      // Folding again changes nothing.
      await store.delete('analytics_folds', 'fold');
      await foldAnalytics(store, h.clock.now());
      assert.deepEqual([await monthRows(), await userRows('analytics_user_days', 'day'), await userRows('analytics_user_months', 'month')], [folded, userDays, userMonths]);
      // Folding everything again, months and users' rows from scratch too (as for rollups made before either was), gives the same rows.
      await store.delete('analytics_folds', 'fold');
      await store.delete('analytics_folds', 'months');
      await store.delete('analytics_folds', 'users');
      await store.deleteWhere('analytics_user_days', gte('day', ''));
      await store.deleteWhere('analytics_user_months', gte('month', ''));
      // Until then, reports read the video rows: the same answers.
      assert.deepEqual(await months('from=2026-01-01&to=2026-02-28&direction=desc&per_page=1&page=2'), {
        total: 4,
        rows: [{ video: one, start_date: '2026-02-01', end_date: '2026-02-28', views: 1, impressions: 0 }],
      });
      assert.deepEqual((await h.call('GET', '/me/analytics?dimension=total&from=2026-01-03&to=2026-02-28', { token: alice.token })).body.data, spanning.body.data);
      await foldAnalytics(store, h.clock.now());
      assert.deepEqual([await monthRows(), await userRows('analytics_user_days', 'day'), await userRows('analytics_user_months', 'month')], [folded, userDays, userMonths]);
    });
  });
}
