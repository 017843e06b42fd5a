/**
 * A promise settled from outside: the one disk write or COMMIT that makes a group of commits
 * durable, which every writer of the group waits on (the group commits of store-json and
 * store-sqlite).
 */
export class Deferred {
  readonly promise: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Every waiter handles the failure; this keeps one nobody waits on from crashing the process.
    this.promise.catch(() => undefined);
  }
}
