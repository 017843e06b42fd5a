import { pick } from '../render/table';
import type { EditForm, VideoChanges } from './form';
import { sectionById, sections, type SectionId } from './sections';

/** A resource as the API answered it (trimmed by `fields`). */
export type Item = Record<string, unknown>;

/** Query parameters of a list request, as strings (taken from the API's paging links). */
export type Params = Record<string, string>;

/** A key as the reducer sees it: no Ink types, so the reducer stays pure and testable. */
export interface Keypress {
  /** Printable text typed (several characters when pasted); '' for a special key. */
  text: string;
  name?: 'up' | 'down' | 'left' | 'right' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'return' | 'escape' | 'tab' | 'backspace';
  shift?: boolean;
  ctrl?: boolean;
}

/** One page of a list, with the parameters that fetch it and its neighbours. */
export interface ListPage {
  items: Item[];
  page: number;
  total: number;
  perPage: number;
  current: Params;
  next: Params | null;
  previous: Params | null;
}

export interface ListState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The last page that arrived (kept on screen while the next one loads). */
  page: ListPage | null;
  selected: number;
  /** The active search (`query`), '' for none. */
  query: string;
  error: string | null;
  /** The id of the latest request: answers to older ones are dropped. */
  request: number;
}

/** An entry of a pick list (an album, a channel, a tag). */
export interface Choice {
  id: string;
  label: string;
}

export type PickPurpose = 'album' | 'channel' | 'untag';

export type Overlay =
  | { kind: 'help' }
  | { kind: 'prompt'; purpose: 'search' | 'tag'; text: string }
  | { kind: 'edit'; form: EditForm }
  | { kind: 'pick'; purpose: PickPurpose; status: 'loading' | 'ready'; choices: Choice[]; selected: number }
  | { kind: 'confirm'; videoId: string; name: string };

/** Who and where: shown in the status line. */
export interface Session {
  user: string;
  userUri: string;
  apiVersion: string;
  target: string;
}

export interface State {
  session: Session;
  /** Sections whose list takes a search query. */
  searchable: readonly SectionId[];
  section: SectionId;
  lists: Record<SectionId, ListState>;
  /** Which pane the arrow keys and Esc act on. */
  focus: 'list' | 'detail';
  overlay: Overlay | null;
  /** What is being done right now ("Saving…"); video actions wait for it. */
  busy: string | null;
  message: { text: string; error: boolean } | null;
  nextRequest: number;
  done: boolean;
}

/** Work the reducer asks for; the app runs it through the client and dispatches the answer. */
export type Effect =
  | { type: 'load'; section: SectionId; params: Params; request: number }
  | { type: 'update'; videoId: string; changes: VideoChanges }
  | { type: 'like' | 'watchLater'; videoId: string; name: string; on: boolean }
  | { type: 'tag'; videoId: string; name: string; word: string; on: boolean }
  | { type: 'choices'; purpose: 'album' | 'channel'; videoId: string }
  | { type: 'addTo'; purpose: 'album' | 'channel'; videoId: string; name: string; target: Choice }
  | { type: 'delete'; videoId: string; name: string }
  | { type: 'job'; action: 'retry' | 'cancel'; jobId: string }
  | { type: 'quit' };

export type Msg =
  | { type: 'key'; key: Keypress }
  | { type: 'listLoaded'; section: SectionId; request: number; page: ListPage }
  | { type: 'listFailed'; section: SectionId; request: number; error: string }
  | { type: 'choicesLoaded'; purpose: PickPurpose; choices: Choice[] }
  | { type: 'videoChanged'; video: Item; text: string }
  | { type: 'videoDeleted'; uri: string; text: string }
  | { type: 'jobChanged'; job: Item; text: string }
  /** Time passed (every jobsRefreshSeconds): a job list on screen reloads. */
  | { type: 'tick' }
  | { type: 'failed'; error: string };

/** The new state and the work it asks for. */
export interface Step {
  state: State;
  effects: Effect[];
}

export const perPage = 25;

const emptyList = (): ListState => ({ status: 'idle', page: null, selected: 0, query: '', error: null, request: 0 });

export function initialState(session: Session, searchable: readonly SectionId[]): State {
  const lists = Object.fromEntries(sections.map((s) => [s.id, emptyList()])) as Record<SectionId, ListState>;
  return { session, searchable, section: sections[0].id, lists, focus: 'list', overlay: null, busy: null, message: null, nextRequest: 1, done: false };
}

/** The parameters of a section's first page (with its search, when there is one). */
export function firstPageParams(section: SectionId, query: string): Params {
  const params: Params = { per_page: String(perPage), fields: sectionById(section).fields.join(',') };
  if (query) params.query = query;
  return params;
}

export const currentList = (state: State): ListState => state.lists[state.section];

export const selectedItem = (state: State): Item | undefined => {
  const list = currentList(state);
  return list.page?.items[list.selected];
};

/** The video the selected item is or carries (a feed activity's clip), if any. */
export function videoIn(section: SectionId, item: Item | undefined): Item | undefined {
  const path = sectionById(section).video;
  if (path === undefined || !item) return undefined;
  const video = path ? pick(item, path) : item;
  return video && typeof video === 'object' && typeof (video as Item).uri === 'string' ? (video as Item) : undefined;
}

export const selectedVideo = (state: State): Item | undefined => videoIn(state.section, selectedItem(state));

/** The signed-in user's own video (which the API does not let them like). */
export const ownVideo = (state: State, video: Item): boolean => pick(video, 'user.uri') === state.session.userUri;
