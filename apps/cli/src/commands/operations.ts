import type { Command } from 'commander';
import { operations } from '@reelbase/core';
import { json, type CliIo } from '../io';
import { renderTable } from '../render/table';
import { jsonOption } from './options';

/** `reelbase operations`: the operation table, for `reelbase call`. */
export function registerOperations(program: Command, io: CliIo): void {
  program
    .command('operations')
    .description('list every operation of the API (id, method, paths, scope) for `reelbase call`')
    .argument('[filter]', 'only ids or paths containing this text')
    .addOption(jsonOption())
    .action((filter: string | undefined, opts: { json?: boolean }) => {
      const rows = [...operations]
        .filter((op) => !filter || op.id.includes(filter) || op.paths.some((p) => p.includes(filter)))
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((op) => ({ id: op.id, method: op.method, paths: op.paths, scope: op.scope ?? null, summary: op.summary }));
      if (opts.json) return io.stdout(json(rows));
      io.stdout(renderTable(rows.map((r) => ({ ...r, paths: r.paths.join(' | '), scope: r.scope ?? '-' })), ['id', 'method', 'paths', 'scope']));
    });
}
