import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { PasswordHash } from './records';
import { scryptKey } from './kdf';

/**
 * Passwords are hashed with scrypt (memory-hard, in Node itself) with a salt per password. The
 * parameters are stored beside each hash, so raising these later leaves old hashes readable.
 * 2^15 × 8 × 128 bytes = 32 MiB and tens of milliseconds per hash: paid on sign-in only.
 */
const current = { N: 2 ** 15, r: 8, p: 1 } as const;
const keyLength = 32;

/** Passwords a person can type and a KDF can take without being a denial of service. */
export const passwordLength = { min: 8, max: 1024 } as const;

const derive = (password: string, salt: Buffer, { N, r, p }: { N: number; r: number; p: number }): Promise<Buffer> =>
  scryptKey(password.normalize('NFC'), salt, keyLength, { N, r, p, maxmem: 256 * N * r });

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, current);
  return { algorithm: 'scrypt', ...current, salt: salt.toString('base64'), hash: hash.toString('base64') };
}

/** True when `password` is the one hashed; compared in constant time. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = await derive(password, Buffer.from(stored.salt, 'base64'), stored);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash no password matches, made once, for an email nobody has: checking against it costs what
 * a real check costs, so an answer's time never tells whether an account exists.
 */
let decoy: Promise<PasswordHash> | undefined;
export const decoyHash = (): Promise<PasswordHash> => (decoy ??= hashPassword(randomBytes(24).toString('base64')));

/** Why a new password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < passwordLength.min) return `A password needs at least ${passwordLength.min} characters.`;
  if (password.length > passwordLength.max) return `A password may have at most ${passwordLength.max} characters.`;
  return null;
}
