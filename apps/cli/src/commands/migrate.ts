import type { Command } from 'commander';
import { schema } from '@reelbase/core';
import { cwdOf, envOf, filesDirOf, keptFilesDirOf } from '../context';
import { exportStore } from '../dump/export-store';
import { importInto } from '../dump/import-store';
import { copyFilesDir, VideoFileTally } from '../dump/video-files';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { describeStore, openExistingStore, openStore, parseStoreSpec } from '../store-spec';
import { filesDefault, jsonOption } from './options';
import { parseBatchSize, restoreOptions, runRestore, type RestoreOptions } from './restore-options';

interface MigrateOptions extends RestoreOptions {
  from: string;
  to: string;
  fromFiles?: string;
  toFiles?: string;
}

const storeForms = 'sqlite:PATH | json:PATH | postgres://… | …';

/**
 * `reelbase migrate`: export piped straight into import, store to store (any drivers), then the
 * video files directory copied when the two stores keep their files in different places.
 */
export function registerMigrate(program: Command, io: CliIo): void {
  const command = program
    .command('migrate')
    .description('copy a store into another (e.g. json to sqlite): every document, ids and sequences included, and its video files')
    .requiredOption('--from <spec>', `the store to copy (${storeForms}); it must exist`)
    .requiredOption('--to <spec>', `the store to copy into (${storeForms}); created when missing, must be empty unless --replace`)
    .option('--from-files <dir>', `the source's video files directory (${filesDefault})`)
    .option('--to-files <dir>', `the target's video files directory (${filesDefault})`);
  restoreOptions(command)
    .addOption(jsonOption())
    .addHelpText('after', '\nExample:\n  reelbase migrate --from json:./data/reelbase.json --to sqlite:./data/reelbase.db')
    .action(async (opts: MigrateOptions) => {
      const env = envOf(io);
      const cwd = cwdOf(io);
      const batchSize = parseBatchSize(opts.batchSize);
      const from = parseStoreSpec(opts.from, cwd);
      const to = parseStoreSpec(opts.to, cwd);
      if (from.path !== null && from.path === to.path) throw new UsageError(`--from and --to name the same file (${from.path})`);
      if (from.url !== undefined && describeStore(from) === describeStore(to)) throw new UsageError(`--from and --to name the same database (${describeStore(from)})`);
      const fromFiles = filesDirOf(from, env, cwd, opts.fromFiles);
      // An in-memory target keeps no files worth copying; a PostgreSQL one keeps them in a directory as a file store does.
      const toFiles = keptFilesDirOf(to, env, cwd, opts.toFiles);
      const files = new VideoFileTally(toFiles);
      const source = await openExistingStore(from);
      try {
        const target = await openStore(to);
        try {
          await runRestore(io, opts, describeStore(to), files, `Migrated ${describeStore(from)}`, async () => {
            let copiedFrom: string | undefined;
            const checks = await importInto(target, schema, { replace: !!opts.replace, batchSize }, async (sink) => {
              // Files first (once the target is known to be empty or emptied), so their check sees them.
              if (toFiles !== undefined && toFiles !== fromFiles && (await copyFilesDir(fromFiles, toFiles))) copiedFrom = fromFiles;
              await exportStore(source, schema, files.wrap(sink));
            });
            return { checks, copiedFrom };
          });
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    });
}
