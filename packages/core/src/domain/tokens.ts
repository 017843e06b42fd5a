import type { Store } from '../store/store';
import { eq } from '../store/filters';
import { hashToken, type TokenRecord } from '../engine/auth';

/**
 * Revocation deletes the token's record. Every request looks its token up in the store, so a
 * server on the same store refuses a revoked token on its very next request; nothing is cached.
 */

/** Revokes one token by its value; the revoked record, or null when the store holds no such token. */
export async function revokeToken(store: Store, token: string): Promise<TokenRecord | null> {
  return store.transaction(async (tx) => {
    const record = await tx.get<TokenRecord>('tokens', hashToken(token));
    if (!record) return null;
    await tx.delete('tokens', record.id);
    return record;
  });
}

/** Revokes every token of a user; answers how many there were. */
export const revokeUserTokens = (store: Store, userId: string): Promise<number> =>
  store.transaction((tx) => tx.deleteWhere('tokens', eq('user_id', userId)));
