import { createService, createToken, createUser, parseScopes, type Service, type ServiceResponse } from '@reelbase/core';
import { makeClip } from '@reelbase/api-tests';
import { serve } from '@reelbase/http';
import { startWorker } from '@reelbase/worker';
import { openStore, type StoreSpec } from '../src/index';

/** A clock that moves one second per reading, so every timestamp of the fixture differs. */
export function steppingClock(start = '2026-01-02T03:04:05Z'): () => Date {
  let time = Date.parse(start);
  return () => new Date((time += 1000));
}

/** Who and what the populated store holds, by id. */
export interface Population {
  tokens: { ada: string; bob: string; cy: string };
  users: { ada: string; bob: string; cy: string };
  videos: { film: string; short: string; uploaded: string; deleted: string };
  comment: string;
  channel: string;
  album: string;
  folder: string;
  page: string;
}

const idOf = (body: unknown): string => String((body as { uri: string }).uri).split('/').pop()!;

/** Calls the service, failing on anything but the expected 2xx status. */
async function call(service: Service, token: string, method: string, url: string, json?: unknown): Promise<ServiceResponse> {
  const r = await service.handle(token, {
    method,
    url,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  if (r.status >= 300) throw new Error(`fixture: ${method} ${url} → ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

/**
 * Fills a new store through the API (`service.handle`): three users with tokens; videos with a
 * comment and a reply, tags, likes, watch later; follows; a channel, an album and a folder holding
 * videos; an On Demand page with a genre and a video; one real clip uploaded by tus over a real
 * socket and transcoded (its job run to the end here), so the files directory holds its file and
 * renditions and the store a done job; and the newest video deleted, so the videos sequence is
 * past the largest id. Closes the store when done.
 */
export async function populateStore(spec: StoreSpec, filesDir: string): Promise<Population> {
  const service = createService({ store: await openStore(spec), clock: steppingClock(), onError: (e) => console.error('UNEXPECTED', e) });
  // No embedded worker: the transcode runs below, by hand, before the store closes.
  const server = await serve(service, { port: 0, host: '127.0.0.1', filesDir, worker: false });
  const worker = startWorker(service, { filesDir, start: false });
  try {
    const person = async (name: string) => {
      const user = await createUser(service.store, service.now(), { name });
      return { id: user.id, token: (await createToken(service.store, service.now(), user.id, parseScopes('all'))).token };
    };
    const ada = await person('Ada');
    const bob = await person('Bob');
    const cy = await person('Cy');
    const as = (who: { token: string }) => (method: string, url: string, json?: unknown) => call(service, who.token, method, url, json);
    const asAda = as(ada);
    const asBob = as(bob);

    await asAda('PATCH', '/me', { bio: 'Films things', location: 'Lisbon' });
    const film = idOf((await asAda('POST', '/me/videos', { name: 'Film', description: 'A long one', privacy: { view: 'anybody' } })).body);
    const short = idOf((await asAda('POST', '/me/videos', { name: 'Short', privacy: { view: 'unlisted' } })).body);

    const comment = idOf((await asBob('POST', `/videos/${film}/comments`, { text: 'Lovely light' })).body);
    await asAda('POST', `/videos/${film}/comments/${comment}/replies`, { text: 'Thanks!' });
    await asAda('PUT', `/videos/${film}/tags/sunset`);
    await asAda('PUT', `/videos/${film}/tags/Lisbon`);
    await asBob('PUT', `/me/likes/${film}`);
    await as(cy)('PUT', `/me/likes/${film}`);
    await asBob('PUT', `/me/watchlater/${short}`);
    await asBob('PUT', `/me/following/${ada.id}`);
    await as(cy)('PUT', `/me/following/${ada.id}`);
    await asAda('PUT', `/me/following/${bob.id}`);

    const channel = idOf((await asAda('POST', '/channels', { name: 'Sunsets', description: 'Golden hours', privacy: 'anybody' })).body);
    await asAda('PUT', `/channels/${channel}/videos/${film}`);
    await asBob('PUT', `/me/channels/${channel}`);
    const album = idOf((await asAda('POST', '/me/albums', { name: 'Best of', description: 'Picks' })).body);
    await asAda('PUT', `/me/albums/${album}/videos/${film}`);
    await asAda('PUT', `/me/albums/${album}/videos/${short}`);
    const folder = idOf((await asAda('POST', '/me/projects', { name: 'Drafts' })).body);
    await asAda('PUT', `/me/projects/${folder}/videos/${short}`);

    const page = idOf(
      (
        await asAda('POST', '/me/ondemand/pages', {
          name: 'The Series',
          description: 'A series',
          type: 'series',
          content_rating: ['safe'],
          rent: { active: true, period: '48 hour', price: { USD: 3 } },
        })
      ).body,
    );
    await asAda('PUT', `/ondemand/pages/${page}/genres/drama`);
    const episode = idOf((await asAda('POST', '/me/videos', { name: 'Episode 1' })).body);
    await asAda('PUT', `/ondemand/pages/${page}/videos/${episode}`, { type: 'main' });

    // tus lives in the HTTP adapter: create the upload through it so the link points at it.
    const bytes = await makeClip({ width: 320, height: 240, seconds: 1 });
    const created = await service.handle(ada.token, {
      method: 'POST',
      url: '/me/videos',
      baseUrl: server.url,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Uploaded', upload: { approach: 'tus', size: bytes.length } }),
    });
    const link = (created.body as { upload: { upload_link: string } }).upload.upload_link;
    const patched = await fetch(link, {
      method: 'PATCH',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: bytes,
    });
    if (patched.status !== 204) throw new Error(`fixture: tus PATCH → ${patched.status} ${await patched.text()}`);
    const uploaded = idOf(created.body);
    const transcodes = await worker.drain();
    const clip = (await asAda('GET', `/videos/${uploaded}?fields=status,transcode`)).body as { status: string; transcode: unknown };
    if (transcodes !== 1 || clip.status !== 'available') throw new Error(`fixture: ${transcodes} transcodes ran; the upload is ${JSON.stringify(clip)}`);
    // The newest video is deleted, so the videos sequence is past the largest id a copy holds.
    const deleted = idOf((await asAda('POST', '/me/videos', { name: 'Gone' })).body);
    await asAda('DELETE', `/videos/${deleted}`);

    return {
      tokens: { ada: ada.token, bob: bob.token, cy: cy.token },
      users: { ada: ada.id, bob: bob.id, cy: cy.id },
      videos: { film, short, uploaded, deleted },
      comment,
      channel,
      album,
      folder,
      page,
    };
  } finally {
    await worker.stop();
    await server.close(); // closes the store too
  }
}
