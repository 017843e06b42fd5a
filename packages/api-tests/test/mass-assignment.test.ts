import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness } from '../src/index';
import { buildWorld, type World } from '../src/world';

/**
 * Mass assignment: fields that are not writable — `uri`, `user`, `stats`, `metadata`,
 * `created_time`, counters, another user's id — are ignored when sent with a create or an edit,
 * never stored. Each case sends them alongside a valid change and compares the stored document's
 * protected fields before and after.
 */
const junk = (b: string): Record<string, unknown> => ({
  id: '424242',
  uri: '/videos/424242',
  user: { uri: `/users/${b}` },
  user_id: b,
  owner_id: b,
  stats: { plays: 1_000_000 },
  metadata: { connections: { likes: { total: 99 } } },
  created_time: '2000-01-01T00:00:00+00:00',
  modified_time: '2000-01-01T00:00:00+00:00',
  likes_total: 999,
  comments_total: 999,
  followers_total: 999,
  videos_total: 999,
  admin: true,
});

interface Case {
  what: string;
  method: 'PATCH' | 'POST';
  path: (v: Record<string, string>) => string;
  body: Record<string, unknown>;
  collection: string;
  /** The document to watch; for creations, read from the answer's uri. */
  id?: (v: Record<string, string>) => string;
  fields: string[];
}

const cases: Case[] = [
  { what: 'video edit', method: 'PATCH', path: (v) => `/videos/${v.video_id}`, body: { name: 'Renamed' }, collection: 'videos', id: (v) => v.video_id, fields: ['id', 'user_id', 'created_time', 'likes_total', 'comments_total'] },
  { what: 'video creation', method: 'POST', path: () => '/me/videos', body: { name: 'New' }, collection: 'videos', fields: ['user_id', 'likes_total', 'comments_total'] },
  { what: 'user edit', method: 'PATCH', path: () => '/me', body: { bio: 'hello' }, collection: 'users', id: (v) => v.user_id, fields: ['id', 'created_time', 'followers_total', 'videos_total'] },
  { what: 'comment edit', method: 'PATCH', path: (v) => `/videos/${v.video_id}/comments/${v.comment_id}`, body: { text: 'edited' }, collection: 'comments', id: (v) => v.comment_id, fields: ['id', 'user_id', 'video_id', 'created_time'] },
  { what: 'comment creation', method: 'POST', path: (v) => `/videos/${v.video_id}/comments`, body: { text: 'another' }, collection: 'comments', fields: ['user_id', 'video_id'] },
  { what: 'album edit', method: 'PATCH', path: (v) => `/me/albums/${v.album_id}`, body: { name: 'Renamed' }, collection: 'albums', id: (v) => v.album_id, fields: ['id', 'user_id', 'created_time'] },
  { what: 'album creation', method: 'POST', path: () => '/me/albums', body: { name: 'New', description: '' }, collection: 'albums', fields: ['user_id'] },
  { what: 'channel edit', method: 'PATCH', path: (v) => `/channels/${v.channel_id}`, body: { name: 'Renamed' }, collection: 'channels', id: (v) => v.channel_id, fields: ['id', 'user_id', 'created_time'] },
  { what: 'group edit', method: 'PATCH', path: (v) => `/groups/${v.group_id}`, body: { name: 'Renamed' }, collection: 'groups', id: (v) => v.group_id, fields: ['id', 'user_id', 'created_time'] },
  { what: 'project edit', method: 'PATCH', path: (v) => `/me/projects/${v.project_id}`, body: { name: 'Renamed' }, collection: 'projects', id: (v) => v.project_id, fields: ['id', 'user_id', 'created_time'] },
  { what: 'preset edit', method: 'PATCH', path: (v) => `/me/presets/${v.preset_id}`, body: { name: 'Renamed' }, collection: 'presets', id: (v) => v.preset_id, fields: ['id', 'user_id', 'created_time'] },
  { what: 'text track edit', method: 'PATCH', path: (v) => `/videos/${v.video_id}/texttracks/${v.texttrack_id}`, body: { name: 'Renamed' }, collection: 'texttracks', id: (v) => v.texttrack_id, fields: ['id', 'video_id', 'created_time'] },
  { what: 'credit edit', method: 'PATCH', path: (v) => `/videos/${v.video_id}/credits/${v.credit_id}`, body: { name: 'Renamed' }, collection: 'credits', id: (v) => v.credit_id, fields: ['id', 'video_id', 'user_id', 'creator_id', 'created_time'] },
];

const pick = (doc: Record<string, unknown> | null, fields: string[]) => Object.fromEntries(fields.map((f) => [f, doc?.[f]]));

for (const driver of drivers) {
  describe(`read-only fields are never stored (${driver.name})`, () => {
    let h: Harness;
    let w: World;
    before(async () => {
      h = await Harness.start(driver);
      w = await buildWorld(h);
    });
    after(() => h.stop());

    for (const c of cases) {
      it(`${c.what}: ${c.method} with uri, user, stats, metadata, created_time, counters, another user's id`, async () => {
        const store = h.service.store;
        const before = c.id ? pick(await store.get(c.collection, c.id(w.vars)), c.fields) : null;
        const r = await h.call(c.method, c.path(w.vars), { token: w.a.token, json: { ...junk(w.b.user.id), ...c.body } });
        assert.ok(r.status < 300, `${r.status} ${r.text.slice(0, 300)}`);
        const id = c.id ? c.id(w.vars) : String(r.body.uri).split('/').pop()!;
        const stored = (await store.get(c.collection, id)) as Record<string, unknown> | null;
        assert.ok(stored, 'the document is there');
        if (before) assert.deepEqual(pick(stored, c.fields), before);
        else {
          assert.notEqual(id, '424242');
          for (const f of c.fields) {
            if (f === 'user_id') assert.equal(stored[f], w.a.user.id);
            else if (f.endsWith('_total')) assert.equal(stored[f] ?? 0, 0);
            else assert.notEqual(stored[f], w.b.user.id);
          }
          assert.notEqual(stored.created_time, '2000-01-01T00:00:00+00:00');
        }
        assert.equal(stored.admin, undefined);
        assert.equal(({} as Record<string, unknown>).admin, undefined, 'no prototype pollution');
        if (r.body && typeof r.body === 'object' && 'uri' in r.body) assert.doesNotMatch(String(r.body.uri), /424242/);
      });
    }
  });
}
