import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidField } from '../engine/errors';

/**
 * The feed's `offset`: a position in one user's feed, `older` (the items after it, for `next`) or
 * `newer` (the items before it, for `previous`). Opaque to clients: base64url JSON plus a MAC.
 * The MAC tells cursors this service made from junk and hand edits; it guards no secret (a forged
 * cursor could only pick a position in the caller's own feed, which is always filtered anew).
 */
export interface FeedCursor {
  /** The feed's user. */
  user: string;
  /** `seq` of the activity the position is next to. */
  seq: number;
  direction: 'older' | 'newer';
}

const key = 'reelbase feed cursor v1';
const mac = (payload: string): string => createHmac('sha256', key).update(payload).digest().subarray(0, 12).toString('base64url');

export function encodeCursor(cursor: FeedCursor): string {
  const payload = Buffer.from(JSON.stringify({ u: cursor.user, s: cursor.seq, d: cursor.direction })).toString('base64url');
  return `${payload}.${mac(payload)}`;
}

/** The cursor an `offset` carries, for the feed of `userId`; 400 naming `offset` for anything else. */
export function decodeCursor(offset: string, userId: string): FeedCursor {
  const [payload, signature = '', ...rest] = offset.split('.');
  // Compared as text: base64url decoding would ignore trailing junk.
  const [given, expected] = [Buffer.from(signature), Buffer.from(mac(payload))];
  const valid = rest.length === 0 && given.length === expected.length && timingSafeEqual(given, expected);
  const value = valid ? parse(payload) : null;
  if (!value || value.u !== userId || !Number.isSafeInteger(value.s) || (value.d !== 'older' && value.d !== 'newer')) {
    throw invalidField('offset', "is not a position from this feed's paging links; take offset from paging.next or paging.previous");
  }
  return { user: value.u as string, seq: value.s as number, direction: value.d };
}

function parse(payload: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
