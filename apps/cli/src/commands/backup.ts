import { resolve } from 'node:path';
import type { Command } from 'commander';
import { backupStore, restoreStore, type BackupOutcome } from '../backup/backup-store';
import { cwdOf, envOf } from '../context';
import { json, line, type CliIo } from '../io';
import { storeSpecFrom } from '../store-spec';
import { jsonOption, storeOption } from './options';

const methods: Record<BackupOutcome['method'], string> = {
  'sqlite-backup-api': 'SQLite’s online backup API, checked with PRAGMA integrity_check',
  'json-commit-copy': 'one whole commit of the JSON file',
  pg_dump: 'pg_dump -Fc',
  pg_restore: 'pg_restore',
};

const blobsNote =
  'Video files are not in it: copy them after it with `reelbase blobs migrate` (records first, then files), and run `reelbase blobs check` after a restore.';

/** `reelbase backup` and `reelbase restore`: a consistent copy of a live store, and putting one back. */
export function registerBackup(program: Command, io: CliIo): void {
  program
    .command('backup')
    .description('copy a live store consistently to a file while servers go on writing (SQLite backup API, the JSON store’s commit, pg_dump -Fc)')
    .addOption(storeOption())
    .requiredOption('--to <file>', 'the backup file (replaced once complete; for PostgreSQL a pg_dump custom-format archive)')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        'PostgreSQL needs pg_dump on PATH or in REELBASE_PG_BIN (default /usr/lib/postgresql/15/bin, Debian’s',
        'postgresql-client); without it the command prints the pg_dump line to run. Records only: back the video',
        'files up with `reelbase blobs migrate`.',
        '',
        'Examples:',
        '  reelbase backup --store sqlite:./data/reelbase.db --to backups/reelbase-$(date +%F).db',
        '  reelbase backup --store postgres://reelbase@db/reelbase --to backups/reelbase.dump',
      ].join('\n'),
    )
    .action(async (opts: { store?: string; to: string; json?: boolean }) => {
      const spec = storeSpecFrom(opts.store, envOf(io), cwdOf(io));
      const done = await backupStore(spec, resolve(cwdOf(io), opts.to), envOf(io));
      if (opts.json) return io.stdout(json(done));
      line(io.stdout, `Backed up ${done.store} to ${done.file} (${methods[done.method]}).`);
      line(io.stdout, blobsNote);
    });

  program
    .command('restore')
    .description('replace a store with a backup made by `reelbase backup`; an empty target only, unless --force (stop its servers first)')
    .requiredOption('--from <file>', 'the backup file')
    .addOption(storeOption())
    .option('--force', 'replace a store that holds documents')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        'PostgreSQL runs pg_restore (one transaction), found as backup finds pg_dump.',
        '',
        'Example:',
        '  reelbase restore --from backups/reelbase-2026-12-07.db --store sqlite:./data/reelbase.db',
      ].join('\n'),
    )
    .action(async (opts: { store?: string; from: string; force?: boolean; json?: boolean }) => {
      const spec = storeSpecFrom(opts.store, envOf(io), cwdOf(io));
      const done = await restoreStore(spec, resolve(cwdOf(io), opts.from), opts.force === true, envOf(io));
      if (opts.json) return io.stdout(json(done));
      line(io.stdout, `Restored ${done.store} from ${done.file} (${methods[done.method]}).`);
      line(io.stdout, blobsNote);
    });
}
