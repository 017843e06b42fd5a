import { schema } from '@reelbase/core';
import type { Answer, CallOptions, Fixture, Harness } from './harness';
import { createChannel } from './channels';
import { createGroup } from './groups';
import { series } from './ondemand';

/**
 * One fixture world: user A owns one of every ownable thing, all made through the API, and
 * `vars` maps every path variable of the operation table to a real id of A's (or of A).
 * B is a stranger with every scope; C is a user A follows.
 */
export interface World {
  a: Fixture;
  b: Fixture;
  c: Fixture;
  vars: Record<string, string>;
}

const idOf = (uri: string): string => String(uri).split('/').filter(Boolean).pop()!;

export async function buildWorld(h: Harness): Promise<World> {
  const a = await h.user('Owner A');
  const b = await h.user('Stranger B');
  const c = await h.user('Followed C');
  await h.follow(a, c);
  const must = async (method: string, path: string, o: CallOptions, ok: number[]): Promise<Answer> => {
    const r = await h.call(method, path, { token: a.token, ...o });
    if (!ok.includes(r.status)) throw new Error(`world: ${method} ${path} → ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  };
  const vars: Record<string, string> = { user_id: a.user.id, follow_user_id: c.user.id };
  const video = await h.video(a, { name: 'World video', privacy: { embed: 'whitelist' } });
  vars.video_id = video;
  const v = `/videos/${video}`;
  vars.comment_id = idOf((await must('POST', `${v}/comments`, { json: { text: 'first' } }, [201])).body.uri);
  vars.credit_id = idOf(
    (await must('POST', `${v}/credits`, { json: { email: 'c@example.com', name: 'C', role: 'Editor', user_uri: `/users/${c.user.id}` } }, [201])).body.uri,
  );
  vars.texttrack_id = idOf((await must('POST', `${v}/texttracks`, { json: { language: 'en', name: 'English', type: 'captions' } }, [201])).body.uri);
  vars.picture_id = idOf((await must('POST', `${v}/pictures`, { json: {} }, [201])).body.uri);
  vars.chapter_id = idOf((await must('POST', `${v}/chapters`, { json: { title: 'Opening', timecode: 0 } }, [201])).body.uri);
  vars.thumbnail_id = idOf((await must('POST', `${v}/timelinethumbnails`, { json: {} }, [201])).body.uri);
  vars.version_id = idOf((await must('POST', `${v}/versions`, { json: { file_name: 'v2.mp4', upload: { approach: 'tus', size: 100 } } }, [200, 201])).body.uri);
  vars.word = 'worldtag';
  await must('PUT', `${v}/tags/${vars.word}`, {}, [200, 201, 204]);
  vars.domain = 'example.com';
  await must('PUT', `${v}/privacy/domains/${vars.domain}`, {}, [200, 201, 204]);
  const categories = (await must('GET', '/categories', {}, [200])).body.data;
  vars.category = idOf(categories[0].uri);
  await must('PUT', `${v}/categories`, { json: { category: [vars.category] } }, [200, 201]);
  vars.channel_id = await createChannel(h, a, 'World channel');
  await must('PUT', `/channels/${vars.channel_id}/videos/${video}`, {}, [204]);
  await must('PUT', `/channels/${vars.channel_id}/tags/${vars.word}`, {}, [200, 201, 204]);
  vars.group_id = await createGroup(h, a, 'World group');
  await must('PUT', `/groups/${vars.group_id}/videos/${video}`, {}, [200, 201, 204]);
  vars.album_id = idOf((await must('POST', '/me/albums', { json: { name: 'World album', description: '' } }, [201])).body.uri);
  await must('PUT', `/me/albums/${vars.album_id}/videos/${video}`, {}, [204]);
  vars.logo_id = idOf((await must('POST', `/users/${a.user.id}/albums/${vars.album_id}/logos`, {}, [200, 201])).body.uri);
  vars.album_thumbnail_id = idOf((await must('POST', `/users/${a.user.id}/albums/${vars.album_id}/custom_thumbnails`, {}, [201])).body.uri);
  vars.project_id = idOf((await must('POST', '/me/projects', { json: { name: 'World project' } }, [200, 201])).body.uri);
  await must('PUT', `/me/projects/${vars.project_id}/videos/${video}`, {}, [204]);
  vars.preset_id = idOf((await must('POST', '/me/presets', { json: { name: 'World preset' } }, [200, 201])).body.uri);
  await must('PUT', `${v}/presets/${vars.preset_id}`, {}, [200, 204]);
  vars.portraitset_id = idOf((await must('POST', '/me/pictures', {}, [200, 201])).body.uri);
  const customLogo = await must('POST', '/me/customlogos', {}, [200, 201]);
  vars.custom_logo_id = idOf(customLogo.body.uri);
  vars.webhook_id = idOf((await must('POST', '/me/webhooks', { json: { url: 'https://hooks.example.com/world' } }, [201])).body.uri);
  // On Demand: a series page with a main video (season 1), a genre, a region, a poster, a background, a promotion.
  const page = await must('POST', '/me/ondemand/pages', { json: series() }, [201]);
  vars.ondemand_id = idOf(page.body.uri);
  const p = `/ondemand/pages/${vars.ondemand_id}`;
  const episode = await h.video(a, { name: 'Episode' });
  vars.ondemand_video_id = episode;
  await must('PUT', `${p}/videos/${episode}`, { json: { type: 'main' } }, [200]);
  const seasons = (await must('GET', `${p}/seasons`, {}, [200])).body.data;
  vars.season_id = idOf(seasons[0].uri);
  vars.genre_id = 'drama';
  await must('PUT', `${p}/genres/${vars.genre_id}`, {}, [201]);
  const regions = (await must('GET', '/ondemand/regions', {}, [200])).body.data;
  vars.country = idOf(regions[0].uri);
  await must('PUT', `${p}/regions/${vars.country}`, {}, [200, 201, 204]);
  vars.poster_id = idOf((await must('POST', `${p}/pictures`, { json: {} }, [200, 201])).body.uri);
  vars.background_id = idOf((await must('POST', `${p}/backgrounds`, { json: {} }, [200, 201])).body.uri);
  vars.promotion_id = idOf(
    (await must('POST', `${p}/promotions`, { json: { type: 'single', total: 10, download: false, stream_period: '1_week' } }, [200, 201])).body.uri,
  );
  // A's feed: C, whom A follows, appears in the world video's credits.
  vars.activity_id = idOf((await must('GET', '/me/feed', {}, [200])).body.data[0].uri);
  return { a, b, c, vars };
}

/** Every document of every collection of the schema, for before/after comparisons. */
export async function snapshot(h: Harness): Promise<Record<string, unknown[]>> {
  // All at once: on PostgreSQL each read is a round trip, and the matrix takes two snapshots a case.
  const names = Object.keys(schema);
  const lists = await Promise.all(names.map((name) => h.service.store.find(name, { orderBy: [{ field: 'id', direction: 'asc' }] })));
  return Object.fromEntries(names.map((name, i) => [name, lists[i].items]));
}

/** Document counts of every collection: a cheaper snapshot. */
export async function counts(h: Harness): Promise<Record<string, number>> {
  const names = Object.keys(schema);
  const totals = await Promise.all(names.map(async (name) => (await h.service.store.find(name, { limit: 0 })).total));
  return Object.fromEntries(names.map((name, i) => [name, totals[i]]));
}

/** Fills `{name}` variables of a path from the world. */
export const fill = (path: string, vars: Record<string, string>): string =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`no world value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
