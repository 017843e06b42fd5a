import { stripVTControlCharacters } from 'node:util';
import { createService, createToken, createUser, parseScopes, schema, type Service } from '@reelbase/core';
import { createClient, type Client } from '@reelbase/http';
import { openJsonStore } from '@reelbase/store-json';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { App } from '../src/tui/app';
import { loadSession } from '../src/tui/session';
import { update } from '../src/tui/reducer';
import type { Effect, Keypress, Msg, Session, State } from '../src/tui/state';

/** A `json:memory` service whose clock steps a minute per reading, so "newest first" is stable. */
export function steppingService(): Promise<Service> {
  let t = Date.parse('2026-03-01T10:00:00Z');
  return openJsonStore({ schema }).then((store) => createService({ store, clock: () => new Date((t += 60_000)) }));
}

export interface Seeded {
  service: Service;
  client: Client;
  session: Session;
  /** Video ids by name. */
  videos: Map<string, string>;
}

/**
 * Ada owns `count` videos ("Clip 01"…), an album and a channel, and follows Bob, whose one video
 * ("Bob's trip") is in her feed. Everything goes through the service; the client acts as Ada.
 */
export async function seed(count: number): Promise<Seeded> {
  const service = await steppingService();
  const token = async (name: string) => {
    const user = await service.store.transaction((tx) => createUser(tx, service.now(), { name }));
    return (await createToken(service.store, service.now(), user.id, parseScopes('all'))).token;
  };
  const client = createClient({ service, token: await token('Ada') });
  const bob = createClient({ service, token: await token('Bob') });
  const videos = new Map<string, string>();
  const created = async (c: Client, name: string) => {
    const answer = await c.call('users.videos.create', { name, description: `About ${name}`, privacy: { view: 'anybody' } });
    if (answer.status !== 201) throw new Error(`seeding ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    videos.set(name, String((answer.body as { uri: string }).uri.split('/').pop()));
  };
  await created(bob, "Bob's trip");
  for (let n = 1; n <= count; n++) await created(client, `Clip ${String(n).padStart(2, '0')}`);
  for (const [id, params] of [
    ['users.following.put', { follow_user_id: '2' }],
    ['users.albums.create', { name: 'Best of', description: 'Favourites' }],
    ['channels.create', { name: 'Staff picks', privacy: 'anybody' }],
  ] as const) {
    const answer = await client.call(id, params);
    if (answer.status >= 300) throw new Error(`seeding ${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return { service, client, session: await loadSession(client), videos };
}

/** Key sequences as a terminal sends them. */
export const keys = {
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  backspace: '\u007F',
  pageDown: '\u001B[6~',
  pageUp: '\u001B[5~',
} as const;

/** The TUI rendered headlessly (ink-testing-library), with frames read as plain text. */
export function renderTui(client: Client, session: Session) {
  const app = render(createElement(App, { client, session }));
  const frame = (): string => stripVTControlCharacters(app.lastFrame() ?? '');
  /**
   * Waits until the latest frame satisfies `ready`, yielding to the event loop between looks
   * (effects answer through promises and timers-free immediates); a bounded number of turns, no clock.
   */
  const waitFor = async (ready: (frame: string) => boolean, what: string): Promise<string> => {
    for (let turn = 0; turn < 5_000; turn++) {
      const current = frame();
      if (ready(current)) return current;
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error(`the screen never showed ${what}; last frame:\n${frame()}`);
  };
  /** Types keys, one write each (as a person would), then waits for `ready`. */
  const press = async (sequence: string | string[], ready: (frame: string) => boolean, what: string): Promise<string> => {
    for (const key of Array.isArray(sequence) ? sequence : [sequence]) app.stdin.write(key);
    return waitFor(ready, what);
  };
  return { app, frame, waitFor, press };
}

/**
 * The two panes of a frame as text, one line per row, borders and padding removed: assertions
 * then read `^› Clip 27 +anybody$` in the list and `^Privacy +anybody$` in the detail pane.
 */
export function panes(frame: string): { list: string; detail: string } {
  const rows = frame.split('\n').filter((l) => l.startsWith('│') && l.includes('││'));
  const inner = (side: string) => side.replace(/^│ ?/, '').replace(/ ?│$/, '').trimEnd();
  return {
    list: rows.map((l) => inner(l.slice(0, l.indexOf('││') + 1))).join('\n'),
    detail: rows.map((l) => inner(l.slice(l.indexOf('││') + 1))).join('\n'),
  };
}

/** The line of a frame that contains `text`. */
export const lineWith = (frame: string, text: string): string => frame.split('\n').find((l) => l.includes(text)) ?? '';

/** A key press as the TUI's messages carry it. */
export const key = (text: string, name?: Keypress['name'], shift = false): Msg => ({ type: 'key', key: { text, name, shift } });

/** Feeds messages one after another; answers the last state and every effect asked for. */
export function run(state: State, ...msgs: Msg[]): { state: State; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const msg of msgs) {
    const step = update(state, msg);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}
