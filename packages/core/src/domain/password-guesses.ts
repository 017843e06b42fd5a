import type { Context } from '../engine/operation';
import { ApiError } from '../engine/errors';
import { addressGroup, rateLimitedCode } from '../engine/rate-limit';
import { releaseAttempts, reserveAttempt } from './attempt-limit';
import { verifySecret } from './secrets';

/**
 * A password given for a video or album, checked against the stored hash of `subject`
 * (`video:12`, `album:3`): true when it matches.
 */
export type PasswordGuess = (subject: string, stored: string | null) => Promise<boolean>;

/**
 * The caller's password as a guess limited per subject and client address (IPv6 by /64;
 * ServiceConfig.passwordGuessLimit): each guess is reserved before the hash runs, the right
 * password gives its reservation back, and a guess beyond the limit is 429/9000 with Retry-After
 * without hashing. undefined when no password was given. In-process callers (no address) are not limited.
 */
export function passwordGuess(ctx: Context<unknown>, given: string | undefined): PasswordGuess | undefined {
  if (given === undefined) return undefined;
  return async (subject, stored) => {
    const address = ctx.clientAddress;
    if (!address) return verifySecret(given, stored);
    const { perAddress, windowSeconds } = ctx.config.passwordGuessLimit;
    const reserved = await reserveAttempt(ctx.store, ctx.now(), windowSeconds, [{ key: `password:${subject}:${addressGroup(address)}`, max: perAddress }]);
    if ('retryAfter' in reserved) throw tooManyGuesses(perAddress, windowSeconds, reserved.retryAfter);
    const matches = await verifySecret(given, stored);
    if (matches) await releaseAttempts(ctx.store, reserved.ids);
    return matches;
  };
}

const tooManyGuesses = (max: number, windowSeconds: number, retryAfter: number): ApiError =>
  new ApiError(
    429,
    rateLimitedCode,
    'Too many wrong passwords. Please try again later.',
    `At most ${max} wrong passwords are allowed for one video or album from one address in ${windowSeconds} seconds. Retry in ${retryAfter} seconds.`,
    undefined,
    { 'Retry-After': String(retryAfter) },
  );
