import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { eq, type VideoRecord } from '@reelbase/core';
import { cleanup } from 'ink-testing-library';
import { keys, lineWith, panes, renderTui, seed, type Seeded } from './tui-harness';

// ink-testing-library draws on a 100-column screen (two panes); rows default to 24.
describe('reelbase tui, rendered with ink-testing-library on an in-process json:memory service', () => {
  let seeded: Seeded;
  beforeEach(async () => (seeded = await seed(27)));
  afterEach(() => cleanup());

  const stored = (name: string) => seeded.service.store.findOne<VideoRecord>('videos', eq('id', seeded.videos.get(name)!));
  const open = async () => {
    const tui = renderTui(seeded.client, seeded.session);
    await tui.waitFor((f) => f.includes('Videos (27)'), 'the first page of my videos');
    return tui;
  };

  it('walks list → detail → edit (name and privacy) → back, and the store has the change', async () => {
    const { frame, press } = await open();
    let screen = frame();
    assert.match(screen, / reelbase {2}1 Videos {2}2 Channels {2}3 Albums {2}4 Folders {2}5 Following {2}6 Feed/);
    let { list, detail } = panes(screen);
    assert.match(list, /^Videos \(27\)\n› Clip 27 +anybody\n {2}Clip 26 +anybody\n/, 'newest first, the first selected');
    assert.match(detail, /^Clip 27\nPrivacy +anybody\nStatus +uploading\n/);
    assert.match(detail, /^Description +About Clip 27$/m);
    assert.match(lineWith(screen, 'API 3.4'), /^ Ada · in-process · API 3\.4 +Videos page 1\/2$/);
    assert.match(lineWith(screen, '? keys'), /Enter open · \/ search/);

    screen = await press('j', (f) => f.includes('› Clip 26'), 'the selection on Clip 26');
    assert.match(panes(screen).detail, /^Clip 26\n(.*\n)*Description +About Clip 26$/m);
    screen = await press(keys.enter, (f) => f.includes('Esc back · e edit'), 'the detail pane focused');

    screen = await press('e', (f) => f.includes('Edit “Clip 26”'), 'the edit form');
    ({ detail } = panes(screen));
    assert.match(detail, /^Edit “Clip 26”\n› Name +Clip 26▌\n {2}Description +About Clip 26\n {2}Privacy +anybody$/m);
    screen = await press([...Array(7).fill(keys.backspace), ...'Sunset reel'], (f) => f.includes('Sunset reel▌'), 'the new name typed');
    screen = await press([keys.tab, keys.tab, keys.right], (f) => f.includes('‹ contacts ›'), 'the privacy changed');
    assert.match(panes(screen).detail, /^ {2}Name +Sunset reel\n {2}Description +About Clip 26\n› Privacy +‹ contacts ›$/m);

    screen = await press(keys.enter, (f) => f.includes('Saved “Sunset reel”.'), 'the save confirmed');
    ({ list, detail } = panes(screen));
    assert.match(list, /^› Sunset reel +contacts$/m);
    assert.match(detail, /^Sunset reel\nPrivacy +contacts\n/);
    const record = await stored('Clip 26');
    assert.equal(record?.name, 'Sunset reel');
    assert.equal(record?.privacy_view, 'contacts');

    screen = await press(keys.escape, (f) => f.includes('Enter open · / search'), 'the list focused again');
    assert.match(panes(screen).list, /^› Sunset reel +contacts$/m);
    assert.doesNotMatch(screen, /Edit “/);
  });

  it('shows every key on ? and goes back on any key', async () => {
    const { press } = await open();
    let screen = await press('?', (f) => f.includes('Keys (any key closes this)'), 'the help');
    for (const text of ['n PgDn  p PgUp', 'next / previous page', 'like / unlike', 'delete (asks first)', 'add to an album / a channel']) {
      assert.ok(screen.includes(text), `help shows "${text}"`);
    }
    // The help names every section the bar numbers (issue 47: the bar had 7, the help 1-6).
    assert.match(screen, /Tab Shift-Tab 1-8 +Videos, Channels, Albums, Folders, Following, Feed, Search, Jobs/);
    assert.doesNotMatch(screen, /Clip 27/);
    screen = await press('x', (f) => f.includes('› Clip 27') && !f.includes('Keys ('), 'the list again');
    assert.match(screen, / 6 Feed {2}7 Search {2}8 Jobs$/m);
    screen = await press('7', (f) => f.includes('Search: ▌'), 'the Search section’s prompt');
    assert.doesNotMatch(screen, /Search search/);
  });

  it('searches with / and clears the search with Esc', async () => {
    const { press } = await open();
    let screen = await press('/', (f) => f.includes('Search videos: ▌'), 'the search prompt');
    screen = await press([...'Clip 1'], (f) => f.includes('Search videos: Clip 1▌'), 'the query typed');
    screen = await press(keys.enter, (f) => f.includes('Videos (10) · search “Clip 1”'), 'the search answered');
    assert.deepEqual(
      panes(screen).list.split('\n').slice(1).filter(Boolean).map((l) => l.slice(2, 9)),
      ['Clip 19', 'Clip 18', 'Clip 17', 'Clip 16', 'Clip 15', 'Clip 14', 'Clip 13', 'Clip 12', 'Clip 11', 'Clip 10'],
    );
    // The prompt starts from the current search, to refine it.
    screen = await press('/', (f) => f.includes('Search videos: Clip 1▌'), 'the prompt holding the search');
    screen = await press([...'zzz', keys.enter], (f) => f.includes('Nothing matches “Clip 1zzz”.'), 'an empty result');
    assert.match(panes(screen).detail, /^Details\nNothing selected\.\n/);
    screen = await press(keys.escape, (f) => f.includes('Videos (27)'), 'the search cleared');
    assert.doesNotMatch(screen, /search “/);
  });

  it('pages with n/p and PgDn/PgUp', async () => {
    const { press } = await open();
    let screen = await press('n', (f) => f.includes('Videos page 2/2'), 'page 2');
    assert.match(panes(screen).list, /^Videos \(27\)\n› Clip 02 +anybody\n {2}Clip 01 +anybody\n\n/);
    assert.doesNotMatch(screen, /Clip 03/);
    screen = await press('n', (f) => f.includes('This is the last page.'), 'the last-page note');
    screen = await press(keys.pageUp, (f) => f.includes('Videos page 1/2'), 'page 1 again');
    assert.match(panes(screen).list, /^Videos \(27\)\n› Clip 27 +anybody\n/);
    screen = await press(keys.pageDown, (f) => f.includes('Videos page 2/2'), 'page 2 by PgDn');
    screen = await press('p', (f) => f.includes('Videos page 1/2'), 'page 1 by p');
  });

  it('deletes a video only once confirmed', async () => {
    const { press } = await open();
    let screen = await press('d', (f) => f.includes('Delete “Clip 27”? It cannot be undone.'), 'the question');
    screen = await press('n', (f) => f.includes('Kept “Clip 27”.'), 'the video kept');
    assert.ok(await stored('Clip 27'));
    screen = await press(['d', 'y'], (f) => f.includes('Deleted “Clip 27”.') && f.includes('Videos (26)'), 'the video deleted');
    assert.match(panes(screen).list, /^Videos \(26\)\n› Clip 26 +anybody\n/);
    assert.equal(await stored('Clip 27'), null);
  });

  it('likes a feed video, tags and untags, and adds to an album and a channel', async () => {
    const { press } = await open();
    let screen = await press('6', (f) => f.includes('Feed (1)'), 'the feed');
    assert.match(panes(screen).list, /^Feed \(1\)\n› Bob's trip +uploads$/m);
    assert.match(panes(screen).detail, /^Bob's trip\nActivity +uploads\n/);
    screen = await press('l', (f) => f.includes('Liked “Bob\'s trip”.'), 'the like');
    assert.match(panes(screen).detail, /^Liked +yes$/m);
    const liked = await seeded.client.call('users.likes.check', { video_id: seeded.videos.get("Bob's trip") });
    assert.equal(liked.status, 204);

    screen = await press('1', (f) => f.includes('› Clip 27'), 'my videos');
    screen = await press('t', (f) => f.includes('Add tag: ▌'), 'the tag prompt');
    screen = await press([...'dusk', keys.enter], (f) => f.includes('Tagged “Clip 27” with “dusk”.'), 'the tag added');
    assert.match(panes(screen).detail, /^Tags +dusk$/m);
    screen = await press('T', (f) => f.includes('Remove a tag from “Clip 27”'), 'the tag list');
    screen = await press(keys.enter, (f) => f.includes('Removed tag “dusk” from “Clip 27”.'), 'the tag removed');
    assert.doesNotMatch(panes(screen).detail, /^Tags/m);

    screen = await press('a', (f) => f.includes('› Best of'), 'the albums to pick from');
    screen = await press(keys.enter, (f) => f.includes('Added “Clip 27” to album “Best of”.'), 'added to the album');
    screen = await press('c', (f) => f.includes('› Staff picks'), 'the channels to pick from');
    screen = await press(keys.enter, (f) => f.includes('Added “Clip 27” to channel “Staff picks”.'), 'added to the channel');
    const inAlbum = await seeded.client.call('users.albums.videos.list', { album_id: '1', fields: 'name' });
    assert.deepEqual((inAlbum.body as { data: unknown[] }).data, [{ name: 'Clip 27' }]);
    const inChannel = await seeded.client.call('channels.videos.list', { channel_id: '1', fields: 'name' });
    assert.deepEqual((inChannel.body as { data: unknown[] }).data, [{ name: 'Clip 27' }]);
  });

  it('offers no like on my own video, and shows an API error in the status line (a tag the API refuses)', async () => {
    const { press } = await open();
    let screen = await press(keys.enter, (f) => f.includes('Esc back · e edit'), 'the detail pane focused');
    assert.doesNotMatch(lineWith(screen, 'Esc back'), / l like /, 'the hint offers no like on one’s own video');
    screen = await press('l', (f) => f.includes('your own video'), 'the refusal');
    assert.match(lineWith(screen, 'your own video'), /^ “Clip 27” is your own video: the API lets you like other people’s\. *$/);
    screen = await press(['t', ...'a,b', keys.enter], (f) => f.includes('error 2204 (HTTP 400)'), 'the error');
    assert.match(lineWith(screen, 'error 2204'), /^ error 2204 \(HTTP 400\): /);
  });

  it('follows the terminal size: one pane when narrow, both again when wide', async () => {
    const { app, press, waitFor } = await open();
    const resize = (columns: number) => {
      Object.defineProperty(app.stdout, 'columns', { value: columns, configurable: true });
      app.stdout.emit('resize');
    };
    resize(60);
    let screen = await waitFor((f) => !f.includes('Description') && f.includes('› Clip 27'), 'the list alone');
    assert.ok(screen.split('\n').every((l) => l.length <= 60), 'no line wider than the terminal');
    screen = await press(keys.enter, (f) => f.includes('Description') && !f.includes('Clip 26'), 'the detail pane alone');
    screen = await press(keys.escape, (f) => f.includes('Clip 26'), 'the list alone again');
    resize(100);
    screen = await waitFor((f) => f.includes('Description') && f.includes('Clip 26'), 'both panes');
  });
});
