import type { CallParams, Client, TransportResponse } from '@reelbase/http';
import { describeApiError } from '../render/api-error';
import { idOf, nameOf } from './format';
import { sectionById, videoFields } from './sections';
import type { Choice, Effect, Item, ListPage, Msg, Params } from './state';

/** Effects that talk to the API (quitting is the app's own business). */
export type ApiEffect = Exclude<Effect, { type: 'quit' }>;

interface ListBody {
  total: number;
  page: number;
  per_page: number;
  paging: { next: string | null; previous: string | null };
  data: Item[];
}

/** Raised inside an effect for a non-2xx answer; its message is the API's error line. */
class ApiFailure extends Error {}

const ok = (answer: TransportResponse): boolean => answer.status >= 200 && answer.status < 300;

/** Picker lists stop after this many pages (100 each). */
const maxChoicePages = 10;

/**
 * Runs one effect through the client, naming every operation by its id, and answers the message
 * to dispatch. Never throws: an API error or a network failure becomes a failure message.
 */
export async function runEffect(client: Client, effect: ApiEffect): Promise<Msg> {
  try {
    return await perform(client, effect);
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    return effect.type === 'load' ? { type: 'listFailed', section: effect.section, request: effect.request, error } : { type: 'failed', error };
  }
}

async function perform(client: Client, effect: ApiEffect): Promise<Msg> {
  const call = async (id: string, params: CallParams): Promise<TransportResponse> => {
    const answer = await client.call(id, params);
    if (!ok(answer)) throw new ApiFailure(describeApiError(answer, { brief: true }));
    return answer;
  };
  // After a change the video is read again, so every list shows it as the API now has it.
  const changed = async (videoId: string, text: (video: Item) => string): Promise<Msg> => {
    const video = (await call('videos.get', { video_id: videoId, fields: videoFields.join(',') })).body as Item;
    return { type: 'videoChanged', video, text: text(video) };
  };
  const quoted = 'name' in effect ? `“${effect.name}”` : '';
  switch (effect.type) {
    case 'load': {
      const answer = await call(sectionById(effect.section).list, effect.params);
      return { type: 'listLoaded', section: effect.section, request: effect.request, page: listPage(answer.body as ListBody, effect.params) };
    }
    case 'update': {
      await call('videos.update', { video_id: effect.videoId, ...effect.changes });
      return changed(effect.videoId, (video) => `Saved “${nameOf(video)}”.`);
    }
    case 'like':
      await call(effect.on ? 'users.likes.put' : 'users.likes.delete', { video_id: effect.videoId });
      return changed(effect.videoId, () => `${effect.on ? 'Liked' : 'Unliked'} ${quoted}.`);
    case 'watchLater':
      await call(effect.on ? 'users.watchlater.put' : 'users.watchlater.delete', { video_id: effect.videoId });
      return changed(effect.videoId, () => `${effect.on ? 'Added' : 'Removed'} ${quoted} ${effect.on ? 'to' : 'from'} watch later.`);
    case 'tag':
      await call(effect.on ? 'videos.tags.put' : 'videos.tags.delete', { video_id: effect.videoId, word: effect.word });
      return changed(effect.videoId, () => (effect.on ? `Tagged ${quoted} with “${effect.word}”.` : `Removed tag “${effect.word}” from ${quoted}.`));
    case 'choices':
      return { type: 'choicesLoaded', purpose: effect.purpose, choices: await choices(client, effect.purpose, effect.videoId) };
    case 'addTo': {
      const [id, params] = effect.purpose === 'album' ? ['users.albums.videos.put', { album_id: effect.target.id }] : ['channels.videos.put', { channel_id: effect.target.id }];
      await call(id, { ...params, video_id: effect.videoId });
      return changed(effect.videoId, () => `Added ${quoted} to ${effect.purpose} “${effect.target.label}”.`);
    }
    case 'delete':
      await call('videos.delete', { video_id: effect.videoId });
      return { type: 'videoDeleted', uri: `/videos/${effect.videoId}`, text: `Deleted ${quoted}.` };
    case 'job': {
      const job = (await call(`admin.jobs.${effect.action}`, { job_id: effect.jobId })).body as Item;
      const text = effect.action === 'retry' ? `Job ${effect.jobId} is queued again.` : `Job ${effect.jobId} is cancelled.`;
      return { type: 'jobChanged', job, text };
    }
  }
}

/** The albums the caller owns, or the channels they moderate that may take the video. */
async function choices(client: Client, purpose: 'album' | 'channel', videoId: string): Promise<Choice[]> {
  const [id, params]: [string, CallParams] =
    purpose === 'album' ? ['users.albums.list', { sort: 'alphabetical' }] : ['videos.available_channels.list', { video_id: videoId }];
  const found: Choice[] = [];
  for (let page = 1; page <= maxChoicePages; page++) {
    const answer = await client.call(id, { ...params, page, per_page: 100, fields: 'uri,name' });
    // A caller who moderates no channel gets 404 (SPEC.md): nothing to pick from.
    if (purpose === 'channel' && answer.status === 404) return [];
    if (!ok(answer)) throw new ApiFailure(describeApiError(answer, { brief: true }));
    const body = answer.body as ListBody;
    found.push(...body.data.map((item) => ({ id: idOf(item), label: nameOf(item) })));
    if (!body.paging.next) break;
  }
  return found;
}

/** A list answer as a page, with the parameters of its neighbours read from the paging links. */
export function listPage(body: ListBody, current: Params): ListPage {
  return {
    items: body.data,
    page: body.page,
    total: body.total,
    perPage: body.per_page,
    current,
    next: paramsOf(body.paging.next),
    previous: paramsOf(body.paging.previous),
  };
}

/** `/me/videos?page=2&per_page=25` → `{ page: '2', per_page: '25' }` (the feed's `offset` cursor included). */
export const paramsOf = (link: string | null): Params | null =>
  link ? Object.fromEntries(new URL(link, 'http://paging.invalid').searchParams) : null;
