import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operations } from '@reelbase/core';
import { drivers, Harness, type Fixture } from '../src/index';
import { addVideo, createChannel } from '../src/channels';
import { fill } from '../src/world';

/**
 * A channel's `link` alias works in place of its numeric id in every channel path of the table
 * (issue 4). Every path with `{channel_id}` gets one request here, made through the alias: it
 * must succeed as it would through the id, and a read answers exactly what the id answers. A
 * channel path the table gains without a row here fails the first test.
 */
interface Row {
  status: number;
  body?: Record<string, unknown>;
}

const alias = 'the-alias';

/** Keyed `METHOD path`; run in the table's order, except that deleting the channel comes last. */
const rows: Record<string, Row> = {
  'POST /channels/{channel_id}/videos/{video_id}/comments': { status: 201, body: { text: 'Through the alias' } },
  'POST /channels/{channel_id}/videos/{video_id}/credits': { status: 201, body: { email: 'b@example.com', name: 'B', role: 'Editor', user_uri: '/users/{b}' } },
  'POST /channels/{channel_id}/videos/{video_id}/texttracks': { status: 201, body: { language: 'en', name: 'English', type: 'captions' } },
  'POST /channels/{channel_id}/videos/{video_id}/pictures': { status: 201, body: {} },
  'GET /channels/{channel_id}/videos/{video_id}/likes': { status: 200 },
  'GET /channels/{channel_id}': { status: 200 },
  'PATCH /channels/{channel_id}': { status: 200, body: { description: 'Edited through the alias' } },
  'DELETE /channels/{channel_id}': { status: 204 },
  'GET /me/channels/{channel_id}': { status: 204 },
  'GET /users/{user_id}/channels/{channel_id}': { status: 204 },
  'PUT /me/channels/{channel_id}': { status: 204 },
  'PUT /users/{user_id}/channels/{channel_id}': { status: 204 },
  'DELETE /me/channels/{channel_id}': { status: 204 },
  'DELETE /users/{user_id}/channels/{channel_id}': { status: 204 },
  'GET /channels/{channel_id}/users': { status: 200 },
  'GET /channels/{channel_id}/moderators': { status: 200 },
  'PUT /channels/{channel_id}/moderators': { status: 200, body: { user_uri: '/users/{b}' } },
  'PATCH /channels/{channel_id}/moderators': { status: 200, body: { user_uri: '/users/{b}' } },
  'DELETE /channels/{channel_id}/moderators': { status: 204, body: { user_uri: '/users/{b}' } },
  'GET /channels/{channel_id}/moderators/{user_id}': { status: 200 },
  'PUT /channels/{channel_id}/moderators/{user_id}': { status: 204 },
  'DELETE /channels/{channel_id}/moderators/{user_id}': { status: 204 },
  'GET /channels/{channel_id}/videos': { status: 200 },
  'PUT /channels/{channel_id}/videos': { status: 200, body: { video_uri: '/videos/{other_video}' } },
  'DELETE /channels/{channel_id}/videos': { status: 204, body: { video_uri: '/videos/{other_video}' } },
  'GET /channels/{channel_id}/videos/{video_id}': { status: 200 },
  'PUT /channels/{channel_id}/videos/{video_id}': { status: 204 },
  'DELETE /channels/{channel_id}/videos/{video_id}': { status: 204 },
  'GET /channels/{channel_id}/categories': { status: 200 },
  'PUT /channels/{channel_id}/categories': { status: 204, body: { channels: ['/categories/music'] } },
  'PUT /channels/{channel_id}/categories/{category}': { status: 204 },
  'DELETE /channels/{channel_id}/categories/{category}': { status: 204 },
  'GET /channels/{channel_id}/tags': { status: 200 },
  'PUT /channels/{channel_id}/tags': { status: 200, body: { tag: ['waves'] } },
  'GET /channels/{channel_id}/tags/{word}': { status: 204 },
  'PUT /channels/{channel_id}/tags/{word}': { status: 204 },
  'DELETE /channels/{channel_id}/tags/{word}': { status: 204 },
  'GET /channels/{channel_id}/privacy/users': { status: 200 },
  'PUT /channels/{channel_id}/privacy/users': { status: 200, body: { users: ['/users/{b}'] } },
  'PUT /channels/{channel_id}/privacy/users/{user_id}': { status: 200 },
  'GET /channels/{channel_id}/videos/{video_id}/recommendations': { status: 200 },
};

const channelPaths = operations.flatMap((op) => op.paths.filter((p) => p.includes('{channel_id}')).map((p) => `${op.method} ${p}`));

/**
 * Path variables besides the channel. Reads name what the channel holds; writes of one member
 * name another one (B to appoint or admit, a second video, a new tag), so the reads stay true.
 */
function varsFor(key: string, base: Record<string, string>): Record<string, string> {
  const write = !key.startsWith('GET ');
  const targetsB = write && /(moderators|privacy\/users)\/\{user_id\}$/.test(key);
  const onOther = write && key.endsWith('/channels/{channel_id}/videos/{video_id}');
  const newTag = write && key.endsWith('/tags/{word}');
  return { ...base, user_id: targetsB ? base.b : base.a, video_id: onOther ? base.other_video : base.video_id, word: newTag ? 'dawn' : base.word };
}

/** Paging links repeat the path as requested; through the alias they name the alias. */
const pagingById = (body: unknown, id: string): unknown =>
  body && typeof body === 'object' && 'paging' in body
    ? JSON.parse(JSON.stringify(body).replaceAll(`/channels/${alias}/`, `/channels/${id}/`))
    : body;

const withVars = (value: unknown, vars: Record<string, string>): unknown =>
  JSON.parse(JSON.stringify(value ?? null).replace(/\{(\w+)\}/g, (_, n: string) => vars[n] ?? `{${n}}`));

describe('channel alias: every channel path has a row', () => {
  it('covers every path of the table with {channel_id}, and nothing else', () => {
    assert.deepEqual(channelPaths.filter((p) => !(p in rows)), []);
    assert.deepEqual(Object.keys(rows).filter((p) => !channelPaths.includes(p)), []);
  });
});

for (const driver of drivers) {
  describe(`the channel link alias in every channel path (${driver.name})`, () => {
    let h: Harness;
    let a: Fixture;
    let vars: Record<string, string>;
    before(async () => {
      h = await Harness.start(driver);
      a = await h.user('Owner');
      const b = await h.user('Appointee');
      await h.follow(a, b);
      // A users channel, so that its view list can be managed too; the owner makes every call.
      const channel = await createChannel(h, a, 'Aliased', { privacy: 'user', link: alias });
      const video = await h.video(a, { name: 'In the channel' });
      const tagged = await h.video(a, { name: 'Tagged alike' });
      await addVideo(h, a, channel, video);
      await addVideo(h, a, channel, tagged);
      assert.equal((await h.call('PUT', `/channels/${channel}/tags/surf`, { token: a.token })).status, 204);
      vars = {
        channel_id: channel,
        a: a.user.id,
        b: b.user.id,
        video_id: video,
        other_video: await h.video(a, { name: 'Added and removed' }),
        category: 'sports',
        word: 'surf',
      };
    });
    after(() => h.stop());

    const ordered = [...channelPaths].sort((x, y) => Number(x === 'DELETE /channels/{channel_id}') - Number(y === 'DELETE /channels/{channel_id}'));
    for (const key of ordered) {
      const [method, path] = key.split(' ');
      it(`${key} through the alias`, async () => {
        const local = varsFor(key, vars);
        const row = rows[key];
        const viaAlias = fill(path, { ...local, channel_id: alias });
        const json = method === 'GET' ? undefined : withVars(row.body ?? {}, local);
        const r = await h.call(method, viaAlias, { token: a.token, json });
        assert.equal(r.status, row.status, `${method} ${viaAlias}: ${r.text.slice(0, 300)}`);
        if (method === 'GET') {
          const viaId = await h.call(method, fill(path, local), { token: a.token });
          assert.equal(viaId.status, r.status);
          assert.deepEqual(pagingById(r.body, vars.channel_id), viaId.body, `${method} ${viaAlias} answers what the id answers`);
        }
      });
    }

    it('the alias is gone with its channel', async () => {
      const r = await h.call('GET', `/channels/${alias}`, { token: a.token });
      assert.equal(r.status, 404, r.text);
    });
  });
}
