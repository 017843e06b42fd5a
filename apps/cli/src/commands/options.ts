import { Option, type Command } from 'commander';

/** Shared flag definitions, so every command words them the same way. */
export const storeOption = () =>
  new Option(
    '--store <spec>',
    'store to open: sqlite:PATH | sqlite::memory: | json:PATH | json:memory | postgres://USER:PASS@HOST:PORT/DB (env REELBASE_STORE; default sqlite:./data/reelbase.db)',
  );

/** Where a store's video files are unless a flag says: as `serve` chooses them. */
export const filesDefault = 'default: REELBASE_FILES, else files/ next to its database, ./data/files for PostgreSQL';

/** Where video files live, for the processes that read and write them. */
export const blobsOption = () =>
  new Option('--blobs <where>', 'where video files live: s3://BUCKET[/PREFIX] or a directory (env REELBASE_BLOBS; default: the files directory)');

export const jsonOption = () => new Option('--json', 'print machine-readable JSON on stdout');

/** Accumulates a repeatable flag's values. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * The flags that pick where a client command goes (read them with `openClient`, whose
 * `TargetOptions` they fill): flags > --profile > environment > default profile > default store.
 */
export function addTargetOptions(command: Command): Command {
  return command
    .option('--token <token>', 'access token (env REELBASE_TOKEN; default: the profile\'s); none = anonymous')
    .addOption(new Option('--base-url <url>', 'call a running server over HTTP (env REELBASE_URL)').conflicts('store'))
    .addOption(storeOption())
    .option('--profile <name>', 'use a profile saved by `reelbase login` (env REELBASE_PROFILE; default: the default profile)')
    .option('--api-version <version>', 'API version to ask for in the Accept header, e.g. 3.2 (default: latest)');
}

/** The output flags of commands that print API answers (read them with `runOperation`). */
export function addOutputOptions(command: Command, { pages }: { pages: boolean }): Command {
  command
    .addOption(new Option('--json', 'print the response body as JSON').conflicts('jsonl'))
    .option('--jsonl', 'print one JSON line per list item (or the body on one line)')
    .option('--fields <fields>', 'fields to keep (comma-separated, sent as `fields`) and, for lists, the table columns');
  return pages ? command.option('--all', 'walk every page of a list (per_page 100 unless given)') : command;
}
