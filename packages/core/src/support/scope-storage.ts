import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage that is switched on only while one of its scopes runs. Node 20 implements
 * AsyncLocalStorage with promise hooks that, once on, run for every promise of the process; the
 * drivers use it only to know which transaction a call comes from, and the request scope only for
 * writes (support/request-scope.ts), so outside every transaction and write (every read of a
 * serving process) it stays off and costs nothing.
 */
export class ScopeStorage<T> {
  readonly #storage = new AsyncLocalStorage<T>();
  #running = 0;

  /** Runs `fn` with `scope` as the store of everything it starts. */
  async run<R>(scope: T, fn: () => Promise<R> | R): Promise<R> {
    this.#running++;
    try {
      return await this.#storage.run(scope, fn);
    } finally {
      // No scope runs any more, so no caller could be inside one: getStore() is undefined either way.
      if (--this.#running === 0) this.#storage.disable();
    }
  }

  /** The scope the running code belongs to, if a scope is running. */
  getStore(): T | undefined {
    return this.#running === 0 ? undefined : this.#storage.getStore();
  }
}
