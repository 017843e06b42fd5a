import type { Doc, Store } from '../store/store';

/** A record of an `auto`-id collection by a path segment; null for a segment no store id could be. */
export const findById = <T extends Doc>(store: Store, collection: string, id: string): Promise<T | null> =>
  /^\d{1,18}$/.test(id) ? store.get<T>(collection, id) : Promise.resolve(null);
