import { createReadStream, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { schema } from '@reelbase/core';
import { cwdOf, envOf, keptFilesDirOf } from '../context';
import { importInto } from '../dump/import-store';
import { readDump } from '../dump/read-dump';
import { VideoFileTally } from '../dump/video-files';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { describeStore, openStore, storeSpecFrom } from '../store-spec';
import { filesDefault, jsonOption, storeOption } from './options';
import { parseBatchSize, restoreOptions, runRestore, type RestoreOptions } from './restore-options';

interface ImportOptions extends RestoreOptions {
  store?: string;
  file?: string;
  files?: string;
}

/** `reelbase import`: a dump from stdin or --file into an empty store, verified by counts. */
export function registerImport(program: Command, io: CliIo): void {
  const command = program
    .command('import')
    .description('load a dump (stdin, or --file) into an empty store, ids and sequences included, and verify every count')
    .addOption(storeOption())
    .option('--file <path>', 'read the dump from this file instead of stdin')
    .option('--files <dir>', `the store's video files directory, where the files the dump references are checked (${filesDefault})`);
  restoreOptions(command)
    .addOption(jsonOption())
    .addHelpText('after', '\nExample:\n  reelbase import --store sqlite:./data/reelbase.db < dump.jsonl')
    .action(async (opts: ImportOptions) => {
      const env = envOf(io);
      const cwd = cwdOf(io);
      const batchSize = parseBatchSize(opts.batchSize);
      const stdin = io.stdin ?? process.stdin;
      if (!opts.file && stdin.isTTY) throw new UsageError('import reads a dump from stdin (reelbase import --store S < dump.jsonl) or from --file');
      const file = opts.file && resolve(cwd, opts.file);
      if (file && !existsSync(file)) throw new Error(`there is no dump file at ${file}`);
      const spec = storeSpecFrom(opts.store, env, cwd);
      // An in-memory store has no files directory worth checking.
      const files = new VideoFileTally(keptFilesDirOf(spec, env, cwd, opts.files));
      const store = await openStore(spec);
      try {
        await runRestore(io, opts, describeStore(spec), files, 'Imported', async () => ({
          checks: await importInto(store, schema, { replace: !!opts.replace, batchSize }, (sink) => readDump(file ? createReadStream(file) : stdin, files.wrap(sink))),
        }));
      } finally {
        await store.close();
      }
    });
}
