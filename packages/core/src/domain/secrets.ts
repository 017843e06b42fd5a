import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** Video, album and default-upload passwords are kept as salted scrypt hashes: `scrypt$salt$hash`. */
export function hashSecret(secret: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `scrypt$${salt}$${scryptSync(secret, salt, 32).toString('base64url')}`;
}

export function verifySecret(secret: string, stored: string | null): boolean {
  if (!stored) return false;
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(secret, salt, expected.length);
  return timingSafeEqual(actual, expected);
}
