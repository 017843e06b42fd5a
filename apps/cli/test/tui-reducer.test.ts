import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operations } from '@reelbase/core';
import { formChanges, openForm } from '../src/tui/form';
import { paneWidths, visibleWindow } from '../src/tui/layout';
import { start, update } from '../src/tui/reducer';
import { searchableSections } from '../src/tui/sections';
import { initialState, type Item, type Keypress, type ListPage, type State } from '../src/tui/state';
import { key, run } from './tui-harness';

const session = { user: 'Ada', userUri: '/users/1', apiVersion: '3.4', target: 'json:memory' };
const video = (id: number, extra: Item = {}): Item => ({
  uri: `/videos/${id}`,
  name: `Clip ${id}`,
  description: `About ${id}`,
  privacy: { view: 'anybody' },
  tags: [{ name: 'sunset' }],
  metadata: { interactions: { like: { added: false }, watchlater: { added: true } } },
  ...extra,
});
const page = (items: Item[], extra: Partial<ListPage> = {}): ListPage => ({
  items,
  page: 1,
  total: items.length,
  perPage: 25,
  current: { per_page: '25' },
  next: null,
  previous: null,
  ...extra,
});

const named = (name: NonNullable<Keypress['name']>, shift = false) => key('', name, shift);

/** A state showing `items` in Videos, its first load answered. */
function withVideos(items: Item[], extra: Partial<ListPage> = {}): State {
  const first = start(initialState(session, searchableSections(operations)));
  const [load] = first.effects;
  assert.equal(load.type, 'load');
  return run(first.state, { type: 'listLoaded', section: 'videos', request: (load as { request: number }).request, page: page(items, extra) }).state;
}

describe('TUI reducer', () => {
  it('starts by loading the first page of my videos with the fields it shows', () => {
    const { state, effects } = start(initialState(session, searchableSections(operations)));
    assert.equal(state.lists.videos.status, 'loading');
    assert.equal(effects.length, 1);
    const [load] = effects;
    assert.ok(load.type === 'load');
    assert.equal(load.section, 'videos');
    assert.equal(load.params.per_page, '25');
    assert.match(load.params.fields, /^uri,name,description,privacy\.view,/);
  });

  it('reads from the operation table which lists take a search query', () => {
    assert.deepEqual(searchableSections(operations).sort(), ['albums', 'channels', 'following', 'search', 'videos']);
  });

  it('moves the selection within bounds and opens and closes the detail pane', () => {
    let state = withVideos([video(1), video(2), video(3)]);
    state = run(state, key('j'), named('down'), named('down')).state;
    assert.equal(state.lists.videos.selected, 2);
    state = run(state, key('k'), key('g')).state;
    assert.equal(state.lists.videos.selected, 0);
    state = run(state, key('G')).state;
    assert.equal(state.lists.videos.selected, 2);
    state = run(state, named('return')).state;
    assert.equal(state.focus, 'detail');
    state = run(state, named('escape')).state;
    assert.equal(state.focus, 'list');
    const quit = run(state, key('q'));
    assert.equal(quit.state.done, true);
    assert.deepEqual(quit.effects, [{ type: 'quit' }]);
  });

  it('drops the answer to a request that a newer one replaced', () => {
    let state = withVideos([video(1)], { next: { page: '2', per_page: '25' } });
    const next = run(state, key('n'));
    const [load] = next.effects;
    assert.ok(load.type === 'load');
    assert.deepEqual(load.params, { page: '2', per_page: '25' });
    state = run(next.state, { type: 'listLoaded', section: 'videos', request: load.request - 1, page: page([video(9)]) }).state;
    assert.equal(state.lists.videos.status, 'loading');
    state = run(state, { type: 'listLoaded', section: 'videos', request: load.request, page: page([video(26)], { page: 2 }) }).state;
    assert.deepEqual(state.lists.videos.page?.items.map((i) => i.uri), ['/videos/26']);
  });

  it('says so at the first and last page instead of loading', () => {
    const state = withVideos([video(1)]);
    for (const k of [key('n'), named('pageDown'), key('p'), named('pageUp')]) {
      const { state: after, effects } = run(state, k);
      assert.deepEqual(effects, []);
      assert.match(after.message?.text ?? '', /This is the (last|first) page\./);
    }
  });

  it('searches through a prompt, and Esc in the list clears the search', () => {
    let state = withVideos([video(1)]);
    state = run(state, key('/')).state;
    assert.deepEqual(state.overlay, { kind: 'prompt', purpose: 'search', text: '' });
    const typed = run(state, key('s'), key('u'), key('x'), named('backspace'), key('n'), named('return'));
    const [load] = typed.effects;
    assert.ok(load.type === 'load');
    assert.equal(load.params.query, 'sun');
    assert.equal(typed.state.lists.videos.query, 'sun');
    assert.equal(typed.state.overlay, null);
    const cleared = run(typed.state, named('escape'));
    assert.ok(cleared.effects[0].type === 'load');
    assert.equal('query' in cleared.effects[0].params, false);
    assert.equal(cleared.state.done, false);
  });

  it('asks for a search on showing Search, which searches every video; clearing it empties the list', () => {
    const state = withVideos([video(1)]);
    const shown = run(state, key('7'));
    assert.equal(shown.state.section, 'search');
    assert.deepEqual(shown.effects, []);
    assert.deepEqual(shown.state.overlay, { kind: 'prompt', purpose: 'search', text: '' });
    const typed = run(shown.state, key('s'), key('e'), key('a'), named('return'));
    const [load] = typed.effects;
    assert.ok(load.type === 'load');
    assert.equal(load.section, 'search');
    assert.equal(load.params.query, 'sea');
    const cleared = run(typed.state, named('escape'));
    assert.deepEqual(cleared.effects, []);
    assert.equal(cleared.state.lists.search.status, 'idle');
    assert.equal(cleared.state.lists.search.query, '');
  });

  it('refuses to search a list whose operation takes no query', () => {
    const state = withVideos([video(1)]);
    const folders = run(state, key('4'));
    assert.equal(folders.state.section, 'folders');
    assert.equal(folders.effects[0].type, 'load');
    const refused = run(folders.state, key('/'));
    assert.equal(refused.state.overlay, null);
    assert.equal(refused.state.message?.text, 'Folders cannot be searched: the API takes no query for this list.');
  });

  it('edits a video in a form and sends only what changed', () => {
    let state = withVideos([video(7)]);
    state = run(state, key('e')).state;
    assert.equal(state.overlay?.kind, 'edit');
    state = run(state, named('backspace'), key('!'), named('tab'), named('tab'), named('right'), named('right')).state;
    const saving = run(state, named('return'));
    assert.deepEqual(saving.effects, [{ type: 'update', videoId: '7', changes: { name: 'Clip !', privacy: { view: 'disable' } } }]);
    assert.equal(saving.state.busy, 'Saving…');
    // Keys are ignored while saving; a failure shows in the form, which stays open.
    const failed = run(saving.state, key('x'), { type: 'failed', error: 'error 2204 (HTTP 400): invalid — privacy.view: nope' });
    assert.ok(failed.state.overlay?.kind === 'edit');
    assert.equal(failed.state.overlay.form.error, 'error 2204 (HTTP 400): invalid — privacy.view: nope');
    assert.equal(failed.state.overlay.form.values.name, 'Clip !');
    const saved = run(run(failed.state, named('return')).state, { type: 'videoChanged', video: video(7, { name: 'Clip !' }), text: 'Saved “Clip !”.' });
    assert.equal(saved.state.overlay, null);
    assert.equal(saved.state.lists.videos.page?.items[0].name, 'Clip !');
    assert.equal(saved.state.message?.text, 'Saved “Clip !”.');
  });

  it('asks for a password only for a password view, and closes an unchanged form', () => {
    const form = openForm(video(3));
    assert.equal(formChanges(form), null);
    assert.deepEqual(formChanges({ ...form, values: { ...form.values, view: 'password', password: 'pw' } }), { privacy: { view: 'password' }, password: 'pw' });
    const closed = run(withVideos([video(3)]), key('e'), named('return'));
    assert.equal(closed.state.overlay, null);
    assert.equal(closed.state.message?.text, 'Nothing changed.');
  });

  it('toggles like and watch later from what the video says', () => {
    const state = withVideos([video(4)]);
    assert.deepEqual(run(state, key('l')).effects, [{ type: 'like', videoId: '4', name: 'Clip 4', on: true }]);
    assert.deepEqual(run(state, key('w')).effects, [{ type: 'watchLater', videoId: '4', name: 'Clip 4', on: false }]);
    const busy = run(state, key('l'), key('w'));
    assert.equal(busy.effects.length, 1);
    assert.equal(busy.state.message?.text, 'Wait: Liking…');
  });

  it('does not like my own video: it says why, and asks nothing of the API', () => {
    const mine = run(withVideos([video(4, { user: { uri: session.userUri, name: 'Ada' } })]), key('l'));
    assert.deepEqual(mine.effects, []);
    assert.equal(mine.state.message?.text, '“Clip 4” is your own video: the API lets you like other people’s.');
  });

  it('tags through a prompt and untags from a pick list of the video’s tags', () => {
    const state = withVideos([video(5)]);
    const tagged = run(state, key('t'), key('d'), key('u'), key('s'), key('k'), named('return'));
    assert.deepEqual(tagged.effects, [{ type: 'tag', videoId: '5', name: 'Clip 5', word: 'dusk', on: true }]);
    const untag = run(state, key('T'));
    assert.deepEqual(untag.state.overlay, { kind: 'pick', purpose: 'untag', status: 'ready', choices: [{ id: 'sunset', label: 'sunset' }], selected: 0 });
    assert.deepEqual(run(untag.state, named('return')).effects, [{ type: 'tag', videoId: '5', name: 'Clip 5', word: 'sunset', on: false }]);
  });

  it('adds to an album picked from a loaded list', () => {
    const state = withVideos([video(6)]);
    const opened = run(state, key('a'));
    assert.deepEqual(opened.effects, [{ type: 'choices', purpose: 'album', videoId: '6' }]);
    const choices = [{ id: '1', label: 'Best of' }, { id: '2', label: 'Drafts' }];
    const picked = run(opened.state, { type: 'choicesLoaded', purpose: 'album', choices }, key('j'), named('return'));
    assert.deepEqual(picked.effects, [{ type: 'addTo', purpose: 'album', videoId: '6', name: 'Clip 6', target: choices[1] }]);
    const none = run(run(state, key('c')).state, { type: 'choicesLoaded', purpose: 'channel', choices: [] });
    assert.equal(none.state.overlay, null);
    assert.equal(none.state.message?.text, 'You have no channels to add to.');
  });

  it('deletes only after y, then reloads the page', () => {
    const state = withVideos([video(8), video(9)]);
    const asked = run(state, key('d'));
    assert.deepEqual(asked.state.overlay, { kind: 'confirm', videoId: '8', name: 'Clip 8' });
    assert.deepEqual(asked.effects, []);
    const kept = run(asked.state, key('n'));
    assert.deepEqual(kept.effects, []);
    assert.equal(kept.state.message?.text, 'Kept “Clip 8”.');
    const deleting = run(asked.state, key('y'));
    assert.deepEqual(deleting.effects, [{ type: 'delete', videoId: '8', name: 'Clip 8' }]);
    const deleted = run(deleting.state, { type: 'videoDeleted', uri: '/videos/8', text: 'Deleted “Clip 8”.' });
    assert.deepEqual(deleted.state.lists.videos.page?.items.map((i) => i.uri), ['/videos/9']);
    assert.deepEqual(deleted.effects.map((e) => e.type), ['load']);
  });

  it('acts on the clip of a feed activity, and on nothing in lists without videos', () => {
    let state = withVideos([video(1)]);
    const feed = run(state, key('6'));
    const [load] = feed.effects;
    assert.ok(load.type === 'load');
    state = run(feed.state, { type: 'listLoaded', section: 'feed', request: load.request, page: page([{ uri: '/users/1/feed/3', type: 'uploads', clip: video(3) }]) }).state;
    assert.deepEqual(run(state, key('l')).effects, [{ type: 'like', videoId: '3', name: 'Clip 3', on: true }]);
    state = run(state, { type: 'videoChanged', video: video(3, { name: 'Renamed' }), text: 'Liked.' }).state;
    assert.equal((state.lists.feed.page?.items[0].clip as Item).name, 'Renamed');
    const following = run(state, key('5'));
    const answered = run(following.state, { type: 'listLoaded', section: 'following', request: (following.effects[0] as { request: number }).request, page: page([{ uri: '/users/2', name: 'Bob' }]) });
    assert.equal(run(answered.state, key('e')).state.message?.text, 'Following holds no videos; open Videos (1), Feed (6) or Search (7).');
  });

  it('shows help until any key', () => {
    const state = run(withVideos([video(1)]), key('?')).state;
    assert.deepEqual(state.overlay, { kind: 'help' });
    assert.equal(run(state, key('x')).state.overlay, null);
  });
});

describe('TUI layout', () => {
  it('splits wide terminals in two panes and keeps the selection in view', () => {
    assert.equal(paneWidths(89), null);
    assert.deepEqual(paneWidths(120), { list: 54, detail: 66 });
    assert.deepEqual(visibleWindow(5, 4, 10), { start: 0, end: 5 });
    assert.deepEqual(visibleWindow(100, 50, 10), { start: 45, end: 55 });
    assert.deepEqual(visibleWindow(100, 99, 10), { start: 90, end: 100 });
  });
});
