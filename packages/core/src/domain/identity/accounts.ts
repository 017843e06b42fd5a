import type { Store } from '../../store/store';
import { eq } from '../../store/filters';
import { isoTime } from '../../support/time';
import { createUser, type NewUser } from '../users';
import type { UserRecord } from '../../records';
import { hashPassword, passwordProblem } from './passwords';
import type { AccountRecord } from './records';

/** Emails compare case-insensitively: one account per address however it is typed. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Why an email is refused, or null: something@something, no spaces, at most 254 characters (RFC 5321). */
export function emailProblem(email: string): string | null {
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email)) return 'That is not an email address.';
  return null;
}

export class AccountInputError extends Error {}

/** A new user with an email and password, or an AccountInputError saying what is wrong. */
export async function createAccountUser(store: Store, now: Date, input: NewUser & { email: string; password: string }, defaultAccount?: string): Promise<UserRecord> {
  const email = normaliseEmail(input.email);
  const problem = emailProblem(email) ?? passwordProblem(input.password);
  if (problem) throw new AccountInputError(problem);
  const password = await hashPassword(input.password);
  return store.transaction(async (tx) => {
    if (await tx.findOne('accounts', eq('email', email))) throw new AccountInputError('That email already has an account.');
    const { email: _email, password: _password, ...facts } = input;
    const user = await createUser(tx, now, facts, defaultAccount);
    await tx.insert<AccountRecord>('accounts', { id: user.id, email, password, created_time: isoTime(now), modified_time: isoTime(now) });
    return user;
  });
}

/** Sets (or gives) a user a password, ending their signed-in sessions; an email is needed when the user has none yet. */
export async function setPassword(store: Store, now: Date, userId: string, password: string, email?: string): Promise<AccountRecord> {
  const problem = passwordProblem(password) ?? (email !== undefined ? emailProblem(normaliseEmail(email)) : null);
  if (problem) throw new AccountInputError(problem);
  const hash = await hashPassword(password);
  return store.transaction(async (tx) => {
    const existing = await tx.get<AccountRecord>('accounts', userId);
    const time = isoTime(now);
    await tx.deleteWhere('sessions', eq('user_id', userId));
    if (existing) return (await tx.update<AccountRecord>('accounts', userId, { password: hash, modified_time: time, ...(email ? { email: normaliseEmail(email) } : {}) }))!;
    if (!email) throw new AccountInputError('This user has no email yet: give one.');
    return tx.insert<AccountRecord>('accounts', { id: userId, email: normaliseEmail(email), password: hash, created_time: time, modified_time: time });
  });
}

export const accountByEmail = (store: Store, email: string): Promise<AccountRecord | null> => store.findOne<AccountRecord>('accounts', eq('email', normaliseEmail(email)));
