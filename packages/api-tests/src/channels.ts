import { where } from '@reelbase/core';
import type { Answer, Fixture, Harness } from './harness';

/** Fixtures for the channel tests, made through the API so they go through the same rules. */
export async function createChannel(h: Harness, owner: Fixture, name: string, json: Record<string, unknown> = {}): Promise<string> {
  const r = await h.call('POST', '/channels', { token: owner.token, json: { name, privacy: 'anybody', ...json } });
  if (r.status !== 200) throw new Error(`creating a channel failed: ${r.status} ${r.text}`);
  return String(r.body.uri).split('/').pop()!;
}

async function expectStatus(r: Promise<Answer>, status: number, what: string): Promise<void> {
  const answer = await r;
  if (answer.status !== status) throw new Error(`${what} failed: ${answer.status} ${answer.text}`);
}

export const subscribe = (h: Harness, who: Fixture, channel: string): Promise<void> =>
  expectStatus(h.call('PUT', `/me/channels/${channel}`, { token: who.token }), 204, 'subscribing');

export const addVideo = (h: Harness, who: Fixture, channel: string, video: string): Promise<void> =>
  expectStatus(h.call('PUT', `/channels/${channel}/videos/${video}`, { token: who.token }), 204, 'adding a video to a channel');

/** `owner` follows `user` (if not yet) and makes them a moderator of the channel. */
export async function appoint(h: Harness, owner: Fixture, channel: string, user: Fixture): Promise<void> {
  if (!(await h.service.store.findOne('follows', where({ user_id: owner.user.id, target_id: user.user.id })))) await h.follow(owner, user);
  await expectStatus(h.call('PUT', `/channels/${channel}/moderators/${user.user.id}`, { token: owner.token }), 204, 'appointing a moderator');
}

/** The totals a channel's connections show (3.4), as its owner sees them. */
export async function channelTotals(h: Harness, owner: Fixture, id: string): Promise<Record<string, number>> {
  const { connections } = (await h.call('GET', `/channels/${id}`, { token: owner.token })).body.metadata;
  return Object.fromEntries(Object.entries(connections).map(([k, v]) => [k, (v as { total: number }).total]));
}

/** The channels connection total of a user (the channels they follow). */
export async function channelsTotalOf(h: Harness, who: Fixture): Promise<number> {
  return (await h.call('GET', '/me', { token: who.token })).body.metadata.connections.channels.total;
}
