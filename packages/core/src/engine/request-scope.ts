import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request being answered, as far as its awaits reach: work queued on its behalf (jobs.enqueue)
 * records its id without every operation passing it down.
 */
const scope = new AsyncLocalStorage<string>();

export const withRequestId = <T>(requestId: string | undefined, fn: () => Promise<T>): Promise<T> => (requestId ? scope.run(requestId, fn) : fn());

/** The id of the request whose work is running, or undefined outside one. */
export const currentRequestId = (): string | undefined => scope.getStore();
