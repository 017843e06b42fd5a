import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const verifierForm = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge: base64url of a SHA-256, 43 characters. */
export const challengeForm = /^[A-Za-z0-9_-]{43}$/;

/** True when `verifier` is the one whose S256 transform is `challenge`; compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!verifierForm.test(verifier)) return false;
  const actual = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
