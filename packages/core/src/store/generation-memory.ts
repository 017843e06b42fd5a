import type { Store } from './store';
import { keep } from '../support/remembered';

/**
 * What core derived from reads (a token's caller, a viewer's rows, a user's facts), remembered per
 * object it is about (a shared document; the store, for what is keyed by text alone) and `key`,
 * which names everything else the reads asked, and answered again while the store's generation
 * (Store.generation) has not moved since it was read: no commit, this process's or another's,
 * can have changed it. A store without a generation is read every time. A few keys per object,
 * like representations/remembered.ts; what it answers is shared, never to be changed.
 */
export class GenerationMemory<V> {
  readonly #byObject = new WeakMap<object, Map<string, { store: Store; generation: number; value: V }>>();

  constructor(private readonly perObject: number) {}

  /**
   * What is remembered of `about` under `key` while the generation stands, or undefined: answered
   * without a promise, so a caller that finds it goes on in the same microtask.
   */
  known(store: Store, about: object, key: string): V | undefined {
    const generation = store.generation?.();
    if (generation === undefined) return undefined;
    const last = this.#byObject.get(about)?.get(key);
    return last && last.store === store && last.generation === generation ? last.value : undefined;
  }

  async get(store: Store, about: object, key: string, read: () => Promise<V>): Promise<V> {
    // Taken before reading: what is read can then only be as new as the generation, or newer.
    const generation = store.generation?.();
    if (generation === undefined) return read();
    let known = this.#byObject.get(about);
    const last = known?.get(key);
    if (last && last.store === store && last.generation === generation) return last.value;
    const value = await read();
    if (!known) this.#byObject.set(about, (known = new Map()));
    keep(known, key, { store, generation, value }, this.perObject);
    return value;
  }
}
