import { ScopeStorage } from './scope-storage';

/**
 * The transport's id of the request being answered (X-Request-Id), as far as its awaits reach:
 * the jobs queued on its behalf (jobs/queue.ts enqueue) record it without every operation and
 * upload path passing it down. Switched on only while such a request runs (ScopeStorage): the
 * transport runs reads outside it, so a server answering only reads runs no promise hooks.
 */
const scope = new ScopeStorage<string>();

export const withRequestId = <T>(requestId: string | undefined, fn: () => Promise<T>): Promise<T> => (requestId ? scope.run(requestId, fn) : fn());

/** The id of the request whose work is running, or undefined outside one. */
export const currentRequestId = (): string | undefined => scope.getStore();
