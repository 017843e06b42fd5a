import type { Fixture, Harness } from './harness';
import { createTusVideo } from './media';

type Body = Record<string, unknown>;

/** A valid film page body: bought for 9.99 USD. */
export const film = (extra: Body = {}): Body => ({
  name: 'The Film',
  description: 'A film',
  type: 'film',
  content_rating: ['safe'],
  buy: { active: true, price: { USD: 9.99 } },
  ...extra,
});

/** A valid series page body: rented for 48 hours at 3 USD. */
export const series = (extra: Body = {}): Body => ({
  name: 'The Series',
  description: 'A series',
  type: 'series',
  content_rating: ['safe'],
  rent: { active: true, period: '48 hour', price: { USD: 3 } },
  ...extra,
});

const idOf = (uri: string): string => uri.split('/').pop()!;

/** Fixtures for the On Demand tests, made through the API so they go through the same rules. */
export async function createPage(h: Harness, owner: Fixture, json: Body = film()): Promise<string> {
  const r = await h.call('POST', '/me/ondemand/pages', { token: owner.token, json });
  if (r.status !== 201) throw new Error(`creating a page failed: ${r.status} ${r.text}`);
  return idOf(r.body.uri);
}

async function putPageVideo(h: Harness, owner: Fixture, pageId: string, videoId: string, json: Body): Promise<void> {
  const r = await h.call('PUT', `/ondemand/pages/${pageId}/videos/${videoId}`, { token: owner.token, json });
  if (r.status !== 200) throw new Error(`adding a video failed: ${r.status} ${r.text}`);
}

/** Creates a video of `owner` and puts it on the page; answers the video id. */
export async function addPageVideo(h: Harness, owner: Fixture, pageId: string, json: Body = { type: 'main' }): Promise<string> {
  const videoId = await h.video(owner);
  await putPageVideo(h, owner, pageId, videoId, json);
  return videoId;
}

/** Puts on the page a video of `owner` whose `size`-byte tus upload is still to come; answers its id and upload link. */
export async function addUploadingVideo(h: Harness, owner: Fixture, pageId: string, size: number, json: Body = { type: 'main' }): Promise<{ id: string; link: string }> {
  const video = await createTusVideo(h, owner.token, size);
  await putPageVideo(h, owner, pageId, video.id, json);
  return video;
}

export async function addGenre(h: Harness, owner: Fixture, pageId: string, genre = 'drama'): Promise<void> {
  const r = await h.call('PUT', `/ondemand/pages/${pageId}/genres/${genre}`, { token: owner.token });
  if (r.status !== 201) throw new Error(`adding a genre failed: ${r.status} ${r.text}`);
}

/** A draft that may be published (it has a genre) and sells once it is (it has a main video). */
export async function readyPage(h: Harness, owner: Fixture, json: Body = film()): Promise<string> {
  const id = await createPage(h, owner, json);
  await addGenre(h, owner, id);
  await addPageVideo(h, owner, id);
  return id;
}

export async function publishedPage(h: Harness, owner: Fixture, json: Body = film()): Promise<string> {
  const id = await readyPage(h, owner, json);
  const r = await h.call('PATCH', `/ondemand/pages/${id}`, { token: owner.token, json: { publish: { active: true } } });
  if (r.status !== 200) throw new Error(`publishing a page failed: ${r.status} ${r.text}`);
  return id;
}
