import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { StoreConflictError, type Store } from '../store/store';
import { isoTime } from '../support/time';

/**
 * Signs the unguessable part of media links (images, text tracks): a link names its object and
 * the version of its content, and the signature makes it a capability. Ids can be enumerated;
 * signatures cannot, so a private video's thumbnail is reached only through a link somebody was
 * handed. One key per store, so every server on a shared database signs alike.
 */
export interface LinkSigner {
  /** 32 hex characters (128 bits) over `subject`. */
  sign(subject: string): string;
  verify(subject: string, signature: string): boolean;
}

type KeyRecord = { id: string; key: string; created_time: string };

const keyName = 'media-links';

export function linkSigner(key: Buffer): LinkSigner {
  const sign = (subject: string) => createHmac('sha256', key).update(subject).digest('hex').slice(0, 32);
  return {
    sign,
    verify(subject, signature) {
      const expected = sign(subject);
      return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
    },
  };
}

/** The store's link key, made on first use; a server racing another to make it reads the winner's. */
export async function loadLinkSigner(store: Store, now: Date): Promise<LinkSigner> {
  const existing = await store.get<KeyRecord>('service_keys', keyName);
  if (existing) return linkSigner(Buffer.from(existing.key, 'hex'));
  try {
    const made = await store.transaction((tx) =>
      tx.insert<KeyRecord>('service_keys', { id: keyName, key: randomBytes(32).toString('hex'), created_time: isoTime(now) }),
    );
    return linkSigner(Buffer.from(made.key, 'hex'));
  } catch (e) {
    const winner = e instanceof StoreConflictError ? await store.get<KeyRecord>('service_keys', keyName) : null;
    if (!winner) throw e;
    return linkSigner(Buffer.from(winner.key, 'hex'));
  }
}
