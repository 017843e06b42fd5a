import type { Doc, Store } from '../store/store';
import { and, gt, isIn } from '../store/filters';
import type { PictureRecord, RenditionSet, TexttrackRecord, TimelineThumbnailRecord, VideoRecord, VideoVersionRecord } from '../records';
import type { CustomLogoRecord } from '../records/embed';
import { framePrefix } from '../media/image-links';
import { type StoredImage } from '../records/image';
import type { JobRecord } from '../jobs/job-records';
import { deleteKind, type DeletePayload } from '../jobs/delete-job';
import { renditionsKey, transcodeKind } from '../uploads/transcode-job';
import { repackageKind } from '../uploads/repackage-job';
import { stagingKey, type Target } from '../uploads/uploads';
import { uploadId } from '../media/upload-links';

/** A blob (or, with `tree`, every blob below `key/`) something in the store holds. */
export interface OwnedBlob {
  key: string;
  tree?: true;
  /**
   * A file a record points at, which must exist. Caches (image sizes, frames), uploads in
   * progress and work in flight may not have been written yet, or never be.
   */
  required: boolean;
  /** Who holds it, for people: `video 12 file`. */
  owner: string;
}

const page = 500;

/** Every row of `collection` (matching `where`), a page at a time in id order. */
async function* rows<T extends Doc>(store: Store, collection: string, where?: import('../store/store').Filter): AsyncGenerator<T> {
  let last: string | undefined;
  for (;;) {
    const { items } = await store.find<T>(collection, { where: and(where, last === undefined ? undefined : gt('id', last)), orderBy: [{ field: 'id', direction: 'asc' }], limit: page });
    yield* items;
    if (items.length < page) return;
    last = items[items.length - 1].id;
  }
}

function* renditionBlobs(set: RenditionSet, owner: string): Generator<OwnedBlob> {
  yield { key: set.key, tree: true, required: false, owner };
  const files = [set.master, ...set.list.flatMap((r) => [r.file, r.playlist]), ...(set.storyboard ? [set.storyboard.vtt, ...set.storyboard.sheets] : [])];
  for (const file of files) yield { key: `${set.key}/${file}`, required: true, owner };
}

/** An image's directory: the master must be there; its sizes are rendered on demand. */
function* imageBlobs(image: StoredImage | null | undefined, owner: string): Generator<OwnedBlob> {
  if (!image) return;
  yield { key: image.key, tree: true, required: false, owner };
  yield { key: `${image.key}/master`, required: true, owner };
}

/** What an upload in progress holds: a resumable upload's tail, a streaming upload's staged bytes. */
function* uploadBlobs(upload: Target['upload'], videoId: string, versionId: string | null, owner: string): Generator<OwnedBlob> {
  if (upload.status !== 'in_progress') return;
  const tail = upload.multipart?.tail;
  if (tail) yield { key: tail.key, required: true, owner: `${owner} upload` };
  if (upload.approach === 'streaming' && upload.secret) yield { key: stagingKey(uploadId(videoId, upload.secret, versionId ?? undefined)), required: false, owner: `${owner} upload` };
}

/**
 * Every blob key and prefix the records hold, and those of work in flight: the one list of what
 * the writers of blobs (uploads, transcodes, image and text track uploads, frames) put where, so
 * that `reelbase blobs check` cannot drift from them. Keys a queued removal names are held too:
 * they are going already.
 */
export async function* ownedBlobs(store: Store): AsyncGenerator<OwnedBlob> {
  for await (const video of rows<VideoRecord>(store, 'videos')) {
    const owner = `video ${video.id}`;
    if (video.file) {
      yield { key: video.file.key, required: true, owner: `${owner} file` };
      yield { key: framePrefix(video.id, video.file.key), tree: true, required: false, owner: `${owner} frames` };
    }
    if (video.renditions) yield* renditionBlobs(video.renditions, `${owner} renditions`);
    yield* uploadBlobs(video.upload as Target['upload'], video.id, null, owner);
  }
  for await (const version of rows<VideoVersionRecord>(store, 'video_versions')) {
    const owner = `video ${version.video_id} version ${version.id}`;
    if (version.file) yield { key: version.file.key, required: true, owner: `${owner} file` };
    yield* uploadBlobs(version.upload as Target['upload'], version.video_id, version.id, owner);
  }
  for await (const p of rows<PictureRecord>(store, 'pictures')) yield* imageBlobs(p.image, `picture ${p.id} (${p.owner_kind} ${p.owner_id})`);
  for await (const l of rows<CustomLogoRecord>(store, 'custom_logos')) yield* imageBlobs(l.image, `custom logo ${l.id}`);
  for await (const t of rows<TimelineThumbnailRecord>(store, 'timeline_thumbnails')) yield* imageBlobs(t.image, `timeline thumbnail ${t.id}`);
  for await (const track of rows<TexttrackRecord>(store, 'texttracks')) {
    if (track.file) yield { key: track.file.key, required: true, owner: `text track ${track.id}` };
  }
  const inFlight = and(isIn('state', ['queued', 'running']), isIn('kind', [deleteKind, transcodeKind, repackageKind]));
  for await (const job of rows<JobRecord>(store, 'jobs', inFlight)) {
    const owner = `${job.kind} job ${job.id}`;
    if (job.kind === deleteKind) for (const key of (job.payload as DeletePayload).keys) yield { key, tree: true, required: false, owner };
    else yield { key: renditionsKey(job.subject, job.id), tree: true, required: false, owner };
  }
}

/** The owned blobs indexed: whether a key is held, by itself or by a prefix above it. */
export class OwnedIndex {
  readonly #keys = new Set<string>();
  readonly #trees = new Set<string>();
  /** The blobs that must exist. */
  readonly required: OwnedBlob[] = [];

  static async of(store: Store): Promise<OwnedIndex> {
    const index = new OwnedIndex();
    for await (const blob of ownedBlobs(store)) index.add(blob);
    return index;
  }

  add(blob: OwnedBlob): void {
    (blob.tree ? this.#trees : this.#keys).add(blob.key);
    if (blob.required) this.required.push(blob);
  }

  holds(key: string): boolean {
    if (this.#keys.has(key) || this.#trees.has(key)) return true;
    for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) if (this.#trees.has(key.slice(0, i))) return true;
    return false;
  }
}
