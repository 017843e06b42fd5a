/** A FIFO async mutex: each `run` starts only after every earlier one has settled. */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    // The chain must survive a rejected run, or one failure would wedge every later caller.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
