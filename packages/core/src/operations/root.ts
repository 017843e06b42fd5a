import { ok, operation, type Operation } from '../engine/operation';
import { welcome } from '../representations/welcome';

/** A browser opening the address: its Accept names text/html (programs send JSON types, or nothing). */
const wantsPage = (accept: string | undefined): boolean => /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept ?? '');

/**
 * `GET /`: an index of every operation in the table (itself included), so the API can be
 * discovered; a browser gets a small page saying what the server is and where to go next.
 */
export function rootOperation(table: readonly Operation<unknown>[]): Operation<unknown> {
  const root: Operation<unknown> = operation({
    id: 'root.index',
    summary: 'Index of every operation (JSON); a browser (Accept: text/html) gets a page saying what this server is and where its docs and sign-in are',
    method: 'GET',
    paths: ['/'],
    async handle(ctx) {
      // The OpenAPI document reads this handler as the JSON index it is for programs.
      if (wantsPage(ctx.request.headers.accept)) return welcome(ctx.baseUrl);
      const endpoints = [...table, root].map((op) => ({
        id: op.id,
        method: op.method,
        paths: op.paths,
        summary: op.summary,
        scope: op.scope ?? null,
      }));
      return { ...ok({ endpoints }, null), headers: { Vary: 'Accept' } };
    },
  });
  return root;
}
