import { pick } from '../render/table';
import { openForm } from './form';
import { idOf, nameOf } from './format';
import { overlayKey } from './overlay-keys';
import { sectionById, sections, type SectionId } from './sections';
import { currentList, firstPageParams, ownVideo, selectedItem, selectedVideo, videoIn, type Effect, type Item, type Keypress, type Msg, type State, type Step } from './state';
import { load, say, search, showSection, still, withList } from './transitions';

/**
 * The TUI's one pure transition: a message (a key, or the answer to an effect) and the state
 * give the next state and the effects to run. No I/O, no Ink: tests drive it directly.
 */
export function update(state: State, msg: Msg): Step {
  switch (msg.type) {
    case 'key':
      return state.overlay ? overlayKey(state, msg.key) : browseKey(state, msg.key);
    case 'listLoaded': {
      const list = state.lists[msg.section];
      if (msg.request !== list.request) return still(state);
      const { page } = msg;
      // The last item of the last page was deleted: show the page before.
      if (!page.items.length && page.page > 1 && page.previous) return load(state, msg.section, page.previous, { selected: 0 });
      const selected = Math.max(0, Math.min(list.selected, page.items.length - 1));
      return still(withList(state, msg.section, { status: 'ready', page, selected, error: null }));
    }
    case 'listFailed': {
      if (msg.request !== state.lists[msg.section].request) return still(state);
      return still(withList(state, msg.section, { status: 'error', error: msg.error }));
    }
    case 'choicesLoaded': {
      const { overlay } = state;
      if (overlay?.kind !== 'pick' || overlay.purpose !== msg.purpose) return still(state);
      if (!msg.choices.length) return still({ ...state, overlay: null, message: { text: `You have no ${msg.purpose}s to add to.`, error: true } });
      return still({ ...state, overlay: { ...overlay, status: 'ready', choices: msg.choices, selected: 0 } });
    }
    case 'videoChanged': {
      const saved = state.overlay?.kind === 'edit' && state.overlay.form.saving;
      return still({ ...replaceVideo(state, msg.video), busy: null, overlay: saved ? null : state.overlay, message: { text: msg.text, error: false } });
    }
    case 'videoDeleted': {
      const cleared = { ...removeVideo(state, msg.uri), busy: null, focus: 'list' as const, message: { text: msg.text, error: false } };
      const current = currentList(cleared).page?.current;
      return current ? load(cleared, cleared.section, current, {}) : still(cleared);
    }
    case 'jobChanged':
      return still({ ...replaceItem(state, 'jobs', msg.job), busy: null, message: { text: msg.text, error: false } });
    case 'tick': {
      const list = currentList(state);
      // A job list on screen follows the queue, unless the operator is busy with something on top of it.
      if (!sectionById(state.section).jobs || state.overlay || state.busy || list.status !== 'ready') return still(state);
      return load(state, state.section, list.page?.current ?? firstPageParams(state.section, list.query), {});
    }
    case 'failed': {
      const { overlay } = state;
      if (overlay?.kind === 'edit' && overlay.form.saving) return still({ ...state, busy: null, overlay: { kind: 'edit', form: { ...overlay.form, saving: false, error: msg.error } } });
      const closing = overlay?.kind === 'pick' && overlay.status === 'loading';
      return still({ ...state, busy: null, overlay: closing ? null : overlay, message: { text: msg.error, error: true } });
    }
  }
}

function browseKey(previous: State, key: Keypress): Step {
  if (key.ctrl) return still(previous);
  // A key press clears the last message; what it does may say something new.
  const state = previous.message ? { ...previous, message: null } : previous;
  const list = currentList(state);
  const count = list.page?.items.length ?? 0;
  const move = (to: number): Step => still(withList(state, state.section, { selected: Math.max(0, Math.min(to, count - 1)) }));
  const k = key.name ?? key.text;
  switch (k) {
    case 'q':
      return state.focus === 'detail' ? still({ ...state, focus: 'list' }) : still({ ...state, done: true }, { type: 'quit' });
    case 'escape':
      if (state.focus === 'detail') return still({ ...state, focus: 'list' });
      return list.query ? search(state, '') : still({ ...state, done: true }, { type: 'quit' });
    case '?':
      return still({ ...state, overlay: { kind: 'help' } });
    case 'up':
    case 'k':
      return move(list.selected - 1);
    case 'down':
    case 'j':
      return move(list.selected + 1);
    case 'home':
    case 'g':
      return move(0);
    case 'end':
    case 'G':
      return move(count - 1);
    case 'return':
    case 'right':
      return count ? still({ ...state, focus: 'detail' }) : still(state);
    case 'left':
      return still({ ...state, focus: 'list' });
    case 'tab': {
      const at = sections.findIndex((s) => s.id === state.section);
      return showSection(state, sections[(at + (key.shift ? sections.length - 1 : 1)) % sections.length].id);
    }
    case 'n':
    case 'pageDown':
      if (!list.page?.next) return say(state, 'This is the last page.', false);
      return load(state, state.section, list.page.next, { selected: 0 });
    case 'p':
    case 'pageUp':
      if (!list.page?.previous) return say(state, 'This is the first page.', false);
      return load(state, state.section, list.page.previous, { selected: 0 });
    case 'r':
      return load(state, state.section, list.page?.current ?? firstPageParams(state.section, list.query), {});
    case '/':
      if (!state.searchable.includes(state.section)) return say(state, `${sectionById(state.section).title} cannot be searched: the API takes no query for this list.`);
      return still({ ...state, overlay: { kind: 'prompt', purpose: 'search', text: list.query } });
  }
  if (/^[1-9]$/.test(k) && Number(k) <= sections.length) return showSection(state, sections[Number(k) - 1].id);
  if (k === 'R' || k === 'X') return jobKey(state, k === 'R' ? 'retry' : 'cancel');
  return videoKey(state, k);
}

/** R X: retry or cancel the selected job. */
function jobKey(state: State, action: 'retry' | 'cancel'): Step {
  if (!sectionById(state.section).jobs) return still(state);
  const job = selectedItem(state);
  if (!job) return say(state, 'Nothing selected.');
  if (state.busy) return say(state, `Wait: ${state.busy}`);
  return still({ ...state, busy: action === 'retry' ? 'Retrying…' : 'Cancelling…' }, { type: 'job', action, jobId: idOf(job) });
}

/** The item of `section` with `item`'s uri becomes `item`. */
function replaceItem(state: State, section: SectionId, item: Item): State {
  const page = state.lists[section].page;
  if (!page) return state;
  return withList(state, section, { page: { ...page, items: page.items.map((i) => (i.uri === item.uri ? item : i)) } });
}

/** The sections holding videos, with their keys: `Videos (1), Feed (6) or Search (7)`. */
const videoSections = sections
  .flatMap((s, i) => (s.video === undefined ? [] : [`${s.title} (${i + 1})`]))
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/** e l w t T a c d: actions on the selected video. */
function videoKey(state: State, k: string): Step {
  if (!'elwtTacd'.includes(k) || k.length !== 1) return still(state);
  const video = selectedVideo(state);
  if (!video) return say(state, selectedItem(state) ? `${sectionById(state.section).title} holds no videos; open ${videoSections}.` : 'Nothing selected.');
  if (state.busy) return say(state, `Wait: ${state.busy}`);
  const videoId = idOf(video);
  const name = nameOf(video);
  const busy = (text: string, effect: Effect): Step => still({ ...state, busy: text }, effect);
  switch (k) {
    case 'e':
      return still({ ...state, focus: 'detail', overlay: { kind: 'edit', form: openForm(video) } });
    case 'l': {
      if (ownVideo(state, video)) return say(state, `“${name}” is your own video: the API lets you like other people’s.`);
      const on = pick(video, 'metadata.interactions.like.added') !== true;
      return busy(on ? 'Liking…' : 'Unliking…', { type: 'like', videoId, name, on });
    }
    case 'w': {
      const on = pick(video, 'metadata.interactions.watchlater.added') !== true;
      return busy('Updating watch later…', { type: 'watchLater', videoId, name, on });
    }
    case 't':
      return still({ ...state, overlay: { kind: 'prompt', purpose: 'tag', text: '' } });
    case 'T': {
      const tags = (pick(video, 'tags') as unknown[] | undefined) ?? [];
      const choices = tags.map((t) => String(pick(t, 'name') ?? '')).filter(Boolean).map((word) => ({ id: word, label: word }));
      if (!choices.length) return say(state, `“${name}” has no tags.`);
      return still({ ...state, overlay: { kind: 'pick', purpose: 'untag', status: 'ready', choices, selected: 0 } });
    }
    case 'a':
    case 'c': {
      const purpose = k === 'a' ? 'album' : 'channel';
      return still({ ...state, overlay: { kind: 'pick', purpose, status: 'loading', choices: [], selected: 0 } }, { type: 'choices', purpose, videoId });
    }
    default:
      return still({ ...state, overlay: { kind: 'confirm', videoId, name } });
  }
}

/** Every list item that is (or carries) `video` gets the new representation. */
function replaceVideo(state: State, video: Item): State {
  return mapVideoItems(state, video.uri as string, (item, path) => (path ? { ...item, [path]: video } : video));
}

function removeVideo(state: State, uri: string): State {
  return mapVideoItems(state, uri, () => null);
}

function mapVideoItems(state: State, uri: string, change: (item: Item, path: string) => Item | null): State {
  let next = state;
  for (const section of sections) {
    const page = state.lists[section.id].page;
    if (section.video === undefined || !page) continue;
    const items = page.items.flatMap((item) => (videoIn(section.id, item)?.uri === uri ? [change(item, section.video!)] : [item])).filter((i): i is Item => i !== null);
    const removed = page.items.length - items.length;
    const selected = Math.max(0, Math.min(state.lists[section.id].selected, items.length - 1));
    next = withList(next, section.id, { page: { ...page, items, total: page.total - removed }, selected });
  }
  return next;
}

/** The first step: show the first section (which loads its first page). */
export const start = (state: State): Step => showSection(state, state.section);
