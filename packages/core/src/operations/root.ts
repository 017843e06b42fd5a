import { ok, operation, type Operation } from '../engine/operation';

/** `GET /`: an index of every operation in the table (itself included), so the API can be discovered. */
export function rootOperation(table: readonly Operation<unknown>[]): Operation<unknown> {
  const root: Operation<unknown> = operation({
    id: 'root.index',
    summary: 'Index of every operation',
    method: 'GET',
    paths: ['/'],
    async handle() {
      const endpoints = [...table, root].map((op) => ({
        id: op.id,
        method: op.method,
        paths: op.paths,
        summary: op.summary,
        scope: op.scope ?? null,
      }));
      return ok({ endpoints }, null);
    },
  });
  return root;
}
