import type { Filter } from '../store/store';
import { eq } from '../store/filters';
import type { UserRecord } from '../records';
import { deepFreeze, isShared } from '../store/copy-json';
import { identityOf, Remembered } from '../support/remembered';

/**
 * Conditions that depend on the viewer alone (which videos, which channels they may see), built
 * once per viewer document and rule and shared: every list the viewer reads asks the same one, and
 * a store that remembers reads knows a shared condition's text without writing it out again
 * (store-sqlite read-keys.ts). A changed viewer is a new document, so a condition never outlives
 * what it was built from; documents that are not shared (fresh on every read) are not remembered.
 */
const byViewer = new WeakMap<UserRecord, Map<object, Filter>>();

/** The condition `build` makes for `viewer` under `rule` (any object naming it: the builder, the fields it reads). */
export function viewerFilter(viewer: UserRecord, rule: object, build: () => Filter): Filter {
  if (!isShared(viewer)) return build();
  let known = byViewer.get(viewer);
  if (!known) byViewer.set(viewer, (known = new Map()));
  let filter = known.get(rule);
  if (!filter) known.set(rule, (filter = deepFreeze(build())));
  return filter;
}

/**
 * A condition about one user (their shared videos, the channels they moderate, the viewer's follow
 * of them: what GET /me and GET /users/{id} ask on every read), made once per shared user
 * document, `viewer` document (null for a condition the viewer does not change, and for an
 * anonymous viewer) and `rule`, for the same reason. Building their text anew was a third of what
 * those reads cost in JavaScript.
 */
export function userFilter(user: UserRecord, viewer: UserRecord | null, rule: string, build: () => Filter): Filter {
  if (!isShared(user) || (viewer && !isShared(viewer))) return build();
  return byUser.get(user, `${rule}\u0000${viewer ? identityOf(viewer) : 0}`, () => deepFreeze(build()));
}

const byUser = new Remembered<Filter>(8);

/** The viewer's own rows of a collection that names them in `user_id` (their likes, queue, history, moderator rows). */
export const viewerRows = (viewer: UserRecord): Filter => viewerFilter(viewer, viewerRows, () => eq('user_id', viewer.id));

/**
 * A list's whole condition as `viewer` reads it, made once per viewer document (one for every
 * anonymous reader) and `list`, which names the list and every value the condition holds besides
 * the viewer's (`channel_videos\u00001\u0000true`). Such a condition wraps the viewer's shared
 * one in the list's own; made anew, its text was joined again, and the read cache's key of 700
 * characters hashed again, on every read (store-sqlite read-keys.ts).
 */
export function listFilter(viewer: UserRecord | null, list: string, build: () => Filter): Filter {
  if (viewer && !isShared(viewer)) return build();
  return byList.get(viewer ?? everyone, list, () => deepFreeze(build()));
}

const byList = new Remembered<Filter>(32);
/** What the conditions of anonymous readers are remembered by. */
const everyone = {};
