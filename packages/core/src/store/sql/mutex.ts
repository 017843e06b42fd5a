import { ScopeStorage } from '../../support/scope-storage';

/** A scope that holds a mutex; transactions link to the scope they were opened in. */
export interface Holder {
  readonly parent?: Holder;
}

/** The transaction whose callback the current async code runs in, if any. */
const current = new ScopeStorage<Holder>();

/** A FIFO async mutex that knows its holder, so a holder waiting on itself fails instead of hanging. */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();
  #holder: Holder | undefined;

  /** Runs `fn` alone; inside it, `current` names `holder`. */
  run<R>(holder: Holder, fn: () => Promise<R> | R): Promise<R> {
    const result = this.#tail.then(async () => {
      this.#holder = holder;
      try {
        return await current.run(holder, fn);
      } finally {
        this.#holder = undefined;
      }
    });
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** True when the running code is (inside) the holder: waiting for the mutex would never end. */
  heldByCaller(): boolean {
    for (let scope = current.getStore(); scope; scope = scope.parent) if (scope === this.#holder) return true;
    return false;
  }

  /** Resolves once everything queued so far has run. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}
