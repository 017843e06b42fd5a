import type { Filter, Store } from '../store/store';
import { and, eq, isIn } from '../store/filters';
import type { FollowRecord, UserRecord } from '../records';
import { hashToken, newToken, type TokenRecord } from '../engine/auth';
import { forbidden, notFound, unauthorized, codes } from '../engine/errors';
import type { Context } from '../engine/operation';
import type { Scope } from '../engine/scopes';
import { isoTime } from '../support/time';
import { type UserFacts } from '../records/user-facts';
import { since, type Version } from '../engine/versions';
import { connectionTotals } from './user-connections';
import { listedTotals } from './listed-totals';
import { identityOf } from '../support/remembered';
import { GenerationMemory } from '../store/generation-memory';
import { userFilter } from './viewer-filters';
import { isShared } from '../store/copy-json';

export interface NewUser {
  name: string;
  account?: string;
  location?: string;
  bio?: string;
  link?: string | null;
}

/** Creates a user with the defaults every new account gets. */
export async function createUser(store: Store, now: Date, input: NewUser, defaultAccount = 'pro'): Promise<UserRecord> {
  return store.insert<UserRecord>('users', newUser(input, isoTime(now), defaultAccount));
}

/** The record a new account starts as: the defaults, then `input`; every counter at 0. */
export function newUser(input: NewUser, time: string, defaultAccount = 'pro'): Omit<UserRecord, 'id'> {
  return {
    name: input.name,
    link: input.link ?? null,
    location: input.location ?? '',
    bio: input.bio ?? '',
    created_time: time,
    modified_time: time,
    account: input.account ?? defaultAccount,
    password_hash: null,
    content_filter: ['language', 'drugs', 'violence', 'nudity', 'safe', 'unrated'],
    websites: [],
    video_defaults: { view: 'anybody', comments: 'anybody', embed: 'public', download: true, add: true },
    verified: true,
    can_follow: true,
    privacy_opt_out: false,
    videos_total: 0,
    followers_total: 0,
    following_total: 0,
    albums_total: 0,
    appearances_total: 0,
    categories_total: 0,
    channels_total: 0,
    folders_total: 0,
    groups_total: 0,
    likes_total: 0,
    pictures_total: 0,
    watchlater_total: 0,
    watched_total: 0,
  };
}

/** Issues a token for a user; the token is answered once and only its hash is stored. */
export async function createToken(store: Store, now: Date, userId: string, scopes: Scope[]): Promise<{ token: string; record: TokenRecord }> {
  const token = newToken();
  const record = await store.insert<TokenRecord>('tokens', { id: hashToken(token), user_id: userId, scopes, created_time: isoTime(now) });
  return { token, record };
}

/** A user by numeric id or custom `link` slug. */
export async function findUser(store: Store, idOrSlug: string): Promise<UserRecord | null> {
  if (/^\d{1,18}$/.test(idOrSlug)) return store.get<UserRecord>('users', idOrSlug);
  return store.findOne<UserRecord>('users', eq('link', idOrSlug));
}

/** The user a `/me/...` or `/users/{user_id}/...` path names; 404 when there is none. */
export async function targetUser(ctx: Context<unknown>): Promise<UserRecord> {
  if (ctx.viaMe) {
    if (!ctx.principal.self) throw unauthorized(codes.invalidCredentials, 'This path needs an authenticated user.');
    return ctx.principal.self;
  }
  const user = await findUser(ctx.store, ctx.path.user_id);
  if (!user) throw notFound('user');
  return user;
}

/** Like targetUser, but only the caller may act for that user (403 otherwise). */
export async function actingUser(ctx: Context<unknown>, action: string): Promise<UserRecord> {
  const user = await targetUser(ctx);
  if (user.id !== ctx.principal.user?.id) throw forbidden(`Only the user themselves may ${action}.`);
  return user;
}

/**
 * What the User representation of each of `users` needs besides the record, for `viewer`: whether
 * they follow each (one query), and the totals no counter keeps (from 3.2 on, where connections appear).
 */
export function loadUserFacts(store: Store, users: readonly UserRecord[], viewer: UserRecord | null, version: Version): Promise<UserFacts[]> {
  const read = () => readUserFacts(store, users, viewer, version);
  // One user (GET /me, GET /users/{id}) as one viewer sees them: remembered while the store's generation stands.
  if (users.length !== 1 || !isShared(users[0]) || (viewer && !isShared(viewer))) return read();
  return oneUsersFacts.get(store, users[0], `${viewer ? identityOf(viewer) : 0}\u0000${since(version, 'connections')}`, read);
}

const oneUsersFacts = new GenerationMemory<UserFacts[]>(4);

async function readUserFacts(store: Store, users: readonly UserRecord[], viewer: UserRecord | null, version: Version): Promise<UserFacts[]> {
  // Nobody follows themselves: their own record needs no look; nor does a viewer who follows nobody.
  const readers = users.filter((u) => u.id !== viewer?.id);
  const others = readers.map((u) => u.id);
  const withConnections = since(version, 'connections');
  const [follows, totals, listed] = await Promise.all([
    viewer && viewer.following_total > 0 && others.length ? store.find<FollowRecord>('follows', { where: followsOf(viewer, users, others) }) : null,
    withConnections ? connectionTotals(store, users, viewer) : users.map(() => ({ shared: 0, moderatedChannels: 0 })),
    withConnections ? listedTotals(store, readers, viewer) : null,
  ]);
  const followed = new Map(follows?.items.map((f) => [f.target_id, f.created_time]));
  // The user themselves lists what their counters count; anybody else what listedTotals counted.
  const listedOf = new Map(listed?.map((l, i) => [readers[i].id, l]));
  return users.map((u, i) => ({ followed: followed.get(u.id) ?? null, ...totals[i], listed: listedOf.get(u.id) ?? null }));
}

/** The viewer's follows of `others` (of `users`); one user's is a shared condition (viewer-filters.ts userFilter). */
function followsOf(viewer: UserRecord, users: readonly UserRecord[], others: string[]): Filter {
  const build = () => and(eq('user_id', viewer.id), isIn('target_id', others));
  return users.length === 1 ? userFilter(users[0], viewer, 'follows', build) : build();
}
