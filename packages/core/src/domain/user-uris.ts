import type { UserRecord } from '../records';
import { ApiError, badRequest, codes, invalidField } from '../engine/errors';
import type { Context } from '../engine/operation';
import { isIn } from '../store/filters';

/** A user URI: `/users/{id}`, or the custom slug that also names the user in paths. */
const userUriPattern = /^\/users\/([A-Za-z0-9_-]{1,64})$/;
const numericId = /^\d{1,18}$/;

/** SPEC.md, Errors: a listed user does not exist. */
export const listedUserMissing = 2900;

export interface UserListLimit {
  max: number;
  /** The code answered beyond `max` (2901 for follow lists). */
  code: number;
}

const badBody = (developerMessage: string, field?: string): ApiError =>
  field ? invalidField(field, developerMessage, codes.badBody) : new ApiError(400, codes.badBody, 'The request body could not be read.', developerMessage);

/**
 * The users a body's `users` list names (a JSON array, or comma-separated in a form), all or
 * nothing: 400/2205 unless it is a non-empty list of user URIs, `limit.code` beyond `limit.max`
 * entries, 400/2900 when any listed user does not exist. Answers each user once.
 */
export async function readUserList(ctx: Context<unknown>, limit: UserListLimit): Promise<UserRecord[]> {
  const { body, bodyKind } = ctx.request;
  if (bodyKind === 'none' || typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badBody('The body must be an object with `users`, a list of user URIs such as ["/users/7"].');
  }
  const raw = (body as Record<string, unknown>).users;
  const list = bodyKind === 'form' && typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter((s) => s !== '') : raw;
  if (!Array.isArray(list) || list.length === 0) throw badBody('must be a non-empty list of user URIs such as ["/users/7"]', 'users');
  const keys = list.map((entry: unknown, i) => {
    const match = typeof entry === 'string' ? userUriPattern.exec(entry) : null;
    if (!match) throw badBody('must be a user URI such as /users/7', `users.${i}`);
    return match[1];
  });
  if (keys.length > limit.max) throw invalidField('users', `lists ${keys.length} users; at most ${limit.max} are allowed`, limit.code);
  const ids = [...new Set(keys.filter((k) => numericId.test(k)))];
  const slugs = [...new Set(keys.filter((k) => !numericId.test(k)))];
  const found = new Map<string, UserRecord>();
  if (ids.length) for (const u of (await ctx.store.find<UserRecord>('users', { where: isIn('id', ids) })).items) found.set(u.id, u);
  if (slugs.length) for (const u of (await ctx.store.find<UserRecord>('users', { where: isIn('link', slugs) })).items) found.set(u.link!, u);
  const missing = keys.find((k) => !found.has(k));
  if (missing !== undefined) throw badRequest(`users: /users/${missing} does not exist; nothing was changed.`, listedUserMissing, 'users');
  return [...new Map(keys.map((k) => [found.get(k)!.id, found.get(k)!])).values()];
}
