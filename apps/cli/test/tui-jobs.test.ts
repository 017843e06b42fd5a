import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createToken, createUser, enqueue, parseScopes, type Service } from '@reelbase/core';
import { createClient, type Client } from '@reelbase/http';
import { runEffect } from '../src/tui/effects';
import { update } from '../src/tui/reducer';
import { sections } from '../src/tui/sections';
import { firstPageParams, initialState, type Effect, type State } from '../src/tui/state';
import { key, run, steppingService } from './tui-harness';

const session = { user: 'ops', userUri: '/users/1', apiVersion: '3.4', target: 'json:memory' };

/** The TUI's Jobs section: the admin list through the client, reloading on each tick, R and X on the selected job. */
describe('TUI Jobs section', () => {
  let service: Service;
  let admin: Client;
  let plain: Client;
  let queued: string;

  before(async () => {
    service = await steppingService();
    const user = await service.store.transaction((tx) => createUser(tx, service.now(), { name: 'ops' }));
    const token = async (scopes: string) => (await createToken(service.store, service.now(), user.id, parseScopes(scopes))).token;
    admin = createClient({ service, token: await token('all,admin') });
    plain = createClient({ service, token: await token('all') });
    queued = (await service.store.transaction((tx) => enqueue(tx, { kind: 'tui.test', subject: '9', payload: {} }, service.now()))).id;
  });

  /** Jobs shown: its key (8) loads the first page, whose answer comes from the client. */
  async function shown(client: Client): Promise<State> {
    const at = String(sections.findIndex((s) => s.id === 'jobs') + 1);
    const opened = run(initialState(session, []), key(at));
    assert.equal(opened.state.section, 'jobs');
    assert.deepEqual(opened.effects, [{ type: 'load', section: 'jobs', params: firstPageParams('jobs', ''), request: 1 }]);
    return update(opened.state, await runEffect(client, opened.effects[0] as Exclude<Effect, { type: 'quit' }>)).state;
  }

  it('lists the jobs with an admin token, and reloads on a tick only while shown and idle', async () => {
    const state = await shown(admin);
    assert.equal(state.lists.jobs.status, 'ready');
    assert.deepEqual(state.lists.jobs.page!.items.map((j) => [j.uri, j.kind, j.state]), [[`/admin/jobs/${queued}`, 'tui.test', 'queued']]);
    assert.deepEqual(run(state, { type: 'tick' }).effects.map((e) => e.type), ['load']);
    assert.deepEqual(run(state, key('?'), { type: 'tick' }).effects, [], 'no reload under the help screen');
    assert.deepEqual(run(state, key('1'), { type: 'tick' }).effects.filter((e) => e.type === 'load' && e.section === 'jobs'), [], 'no reload of a hidden section');
  });

  it('cancels the selected job with X and retries it with R', async () => {
    let state = await shown(admin);
    const cancel = run(state, key('X'));
    assert.deepEqual(cancel.effects, [{ type: 'job', action: 'cancel', jobId: queued }]);
    assert.equal(cancel.state.busy, 'Cancelling…');
    state = update(cancel.state, await runEffect(admin, cancel.effects[0] as Exclude<Effect, { type: 'quit' }>)).state;
    assert.deepEqual([state.busy, state.message, state.lists.jobs.page!.items[0].state], [null, { text: `Job ${queued} is cancelled.`, error: false }, 'failed']);
    const retry = run(state, key('R'));
    state = update(retry.state, await runEffect(admin, retry.effects[0] as Exclude<Effect, { type: 'quit' }>)).state;
    assert.deepEqual([state.message?.text, state.lists.jobs.page!.items[0].state], [`Job ${queued} is queued again.`, 'queued']);
    assert.deepEqual(run(state, key('1'), key('R')).effects.filter((e) => e.type === 'job'), [], 'R does nothing outside Jobs');
  });

  it('says why the list is empty for a token without the admin scope', async () => {
    const state = await shown(plain);
    assert.equal(state.lists.jobs.status, 'error');
    assert.match(state.lists.jobs.error!, /error 3200 \(HTTP 403\): This operation needs the "admin" scope/);
  });
});
