import { resolve } from 'node:path';
import type { Command } from 'commander';
import { schema } from '@reelbase/core';
import { cwdOf, envOf, filesDirOf } from '../context';
import { renderDumpCounts } from '../dump/count-report';
import { createDumpFile, stdoutOutput } from '../dump/dump-file';
import { exportStore } from '../dump/export-store';
import { formatBytes, VideoFileTally } from '../dump/video-files';
import { writeDump } from '../dump/write-dump';
import { line, type CliIo } from '../io';
import { describeStore, openExistingStore, storeSpecFrom } from '../store-spec';
import { filesDefault, storeOption } from './options';

interface ExportOptions {
  store?: string;
  file?: string;
  files?: string;
}

/** `reelbase export`: the whole store as a JSON-lines dump; counts and a note on video files go to stderr. */
export function registerExport(program: Command, io: CliIo): void {
  program
    .command('export')
    .description('write every document of a store, ids included, as a JSON-lines dump on stdout (or --file)')
    .addOption(storeOption())
    .option('--file <path>', 'write the dump to this file instead of stdout (it appears only once complete)')
    .option('--files <dir>', `the store's video files directory, named in the note on them (${filesDefault})`)
    .addHelpText('after', '\nVideo files are not in the dump: copy the files directory too (reelbase migrate does both).\n\nExample:\n  reelbase export --store json:./data/reelbase.json > dump.jsonl')
    .action(async (opts: ExportOptions) => {
      const env = envOf(io);
      const cwd = cwdOf(io);
      const spec = storeSpecFrom(opts.store, env, cwd);
      const files = new VideoFileTally();
      const store = await openExistingStore(spec);
      let header;
      try {
        const output = opts.file ? await createDumpFile(resolve(cwd, opts.file)) : stdoutOutput(io.stdout);
        try {
          header = await exportStore(store, schema, files.wrap(writeDump((text) => output.write(text))));
          await output.commit();
        } catch (error) {
          await output.abort();
          throw error;
        }
      } finally {
        await store.close();
      }
      io.stderr(renderDumpCounts(header));
      const total = Object.values(header.collections).reduce((n, c) => n + c.count, 0);
      line(io.stderr, `Exported ${total} documents from ${describeStore(spec)}${opts.file ? ` to ${resolve(cwd, opts.file)}` : ''}.`);
      if (files.files > 0) {
        line(
          io.stderr,
          `Video files are not in the dump: the videos reference ${files.files} (${formatBytes(files.bytes)}) in ${filesDirOf(spec, env, cwd, opts.files)}; ` +
            "copy that directory to the target's files directory (REELBASE_FILES, or files/ next to its database).",
        );
      }
    });
}
