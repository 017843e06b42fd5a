import { randomBytes, timingSafeEqual } from 'node:crypto';
import { scryptKey } from './identity/kdf';

/**
 * Video, album and default-upload passwords are kept as salted scrypt hashes: `scrypt$salt$hash`
 * (scrypt's default cost). Hashed off the event loop, a few at once (kdf.ts): anybody may guess.
 */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16).toString('base64url');
  return `scrypt$${salt}$${(await scryptKey(secret, salt, 32)).toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptKey(secret, salt, expected.length);
  return timingSafeEqual(actual, expected);
}
