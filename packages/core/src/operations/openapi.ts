import { renderOpenApi } from '../docs/openapi';
import { ok, operation, type Operation } from '../engine/operation';
import { formatVersion, latestVersion } from '../engine/versions';

/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of the whole table (itself included). The table
 * is passed lazily since this operation is one of its rows; the document is built once.
 */
export function openapiOperation(table: () => readonly Operation<unknown>[]): Operation<unknown> {
  let cached: Record<string, unknown> | undefined;
  return operation({
    id: 'root.openapi',
    summary: 'OpenAPI 3.1 document of every operation',
    method: 'GET',
    paths: ['/openapi.json'],
    async handle(ctx) {
      cached ??= renderOpenApi(table(), { vendor: ctx.config.vendor, apiVersion: formatVersion(latestVersion) });
      return ok({ ...cached, servers: [{ url: ctx.baseUrl }] }, null);
    },
  });
}
