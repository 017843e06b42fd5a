import type { Fixture, Harness } from './harness';

/** Fixtures for the group tests, made through the API so they go through the same rules. */
export async function createGroup(h: Harness, owner: Fixture, name: string, json: Record<string, unknown> = {}): Promise<string> {
  const r = await h.call('POST', '/groups', { token: owner.token, json: { name, ...json } });
  if (r.status !== 200) throw new Error(`creating a group failed: ${r.status} ${r.text}`);
  return String(r.body.uri).split('/').pop()!;
}

export async function editGroup(h: Harness, owner: Fixture, id: string, json: Record<string, unknown>): Promise<void> {
  const r = await h.call('PATCH', `/groups/${id}`, { token: owner.token, json });
  if (r.status !== 200) throw new Error(`editing a group failed: ${r.status} ${r.text}`);
}

export async function joinGroup(h: Harness, who: Fixture, id: string): Promise<void> {
  const r = await h.call('PUT', `/me/groups/${id}`, { token: who.token });
  if (r.status !== 204) throw new Error(`joining a group failed: ${r.status} ${r.text}`);
}

/** The totals a group's connections show (3.4). */
export async function groupTotals(h: Harness, id: string): Promise<{ users: number; videos: number }> {
  const { connections } = (await h.call('GET', `/groups/${id}`)).body.metadata;
  return { users: connections.users.total, videos: connections.videos.total };
}

/** The groups connection total of a user. */
export async function groupsTotalOf(h: Harness, who: Fixture): Promise<number> {
  return (await h.call('GET', '/me', { token: who.token })).body.metadata.connections.groups.total;
}
