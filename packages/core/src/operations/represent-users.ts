import type { UserRecord } from '../records';
import type { Context } from '../engine/operation';
import type { RepresentContext } from '../representations/common';
import { representUser } from '../representations/user';
import type { UserFacts } from '../records/user-facts';
import { Remembered } from '../support/remembered';
import { deepFreeze, isShared } from '../store/copy-json';
import { loadUserFacts } from '../domain/users';
import { representContext } from './represent-context';

/** User representations for a page of users, as the caller sees them. */
export async function representUsers(ctx: Context<unknown>, users: UserRecord[]): Promise<Record<string, unknown>[]> {
  const facts = await loadUserFacts(ctx.store, users, ctx.principal.user, ctx.version);
  const rc = representContext(ctx);
  return users.map((u, i) => sharedUser(u, rc, facts[i]));
}

/**
 * A User remembered per shared user document for a few viewers: what it shows besides the
 * document is the viewer's (their id, whether they may follow) and the facts loaded for them.
 */
function sharedUser(user: UserRecord, rc: RepresentContext, facts: UserFacts): Record<string, unknown> {
  const viewer = rc.viewer;
  if (!isShared(user) || (viewer && !isShared(viewer))) return representUser(user, rc, facts);
  const key = [viewer?.id, viewer?.can_follow, facts.followed, facts.moderatedChannels, facts.shared, rc.baseUrl, rc.version.join('.')].join('\u0000');
  return sharedUsers.get(user, key, () => deepFreeze(representUser(user, rc, facts)));
}

const sharedUsers = new Remembered<Record<string, unknown>>(4);

export const representOneUser = async (ctx: Context<unknown>, user: UserRecord): Promise<Record<string, unknown>> =>
  (await representUsers(ctx, [user]))[0];
