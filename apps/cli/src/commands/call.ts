import type { Command } from 'commander';
import { openClient, type TargetOptions } from '../client';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { parseParams } from '../params';
import { runOperation, type OutputOptions } from '../run-operation';
import { addOutputOptions, addTargetOptions, collect } from './options';

interface CallOptions extends TargetOptions, OutputOptions {
  data: string[];
}

/** `reelbase call <operation-id>`: any operation of the table by id, with its parameters as flags. */
export function registerCall(program: Command, io: CliIo): void {
  const command = program
    .command('call')
    .description('call an operation of the table by id (see `reelbase operations`); path variables and parameters as flags')
    .argument('<operation-id>', 'e.g. videos.get, users.videos.list, videos.update')
    .argument('[params...]', 'parameters as --name value (dot notation nests: --privacy.view nobody)')
    .option('-d, --data <key=value>', 'a parameter (repeatable), as an alternative to --name value', collect, [])
    .allowUnknownOption()
    .allowExcessArguments();
  addOutputOptions(command, { pages: true });
  addTargetOptions(command)
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 for a 2xx answer, 1 for an API error (its error_code on stderr) or a network',
        'error, 2 for a usage error (unknown operation, missing path variable, bad flag).',
        '',
        'Examples:',
        '  reelbase call videos.get --video_id 7',
        '  reelbase call users.videos.list --all --fields uri,name --token $TOKEN',
        '  reelbase call videos.update --video_id 7 --name Hello --privacy.view nobody --token $TOKEN',
        '  reelbase call users.videos.list --jsonl --all --base-url http://127.0.0.1:8080 --token $TOKEN',
      ].join('\n'),
    )
    .action(async (id: string, rest: string[], opts: CallOptions) => {
      const params = parseParams(rest, opts.data);
      const client = await openClient(io, opts);
      try {
        if (!client.operations.some((op) => op.id === id)) throw new UsageError(`unknown operation "${id}" (list them with \`reelbase operations\`)`);
        await runOperation(io, client, id, params, opts);
      } finally {
        await client.close();
      }
    });
}
