import { Command } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import type { CliIo } from './io';
import { registerApi } from './commands/api';
import { registerBackup } from './commands/backup';
import { registerBatch } from './commands/batch';
import { registerBlobs } from './commands/blobs';
import { registerCall } from './commands/call';
import { registerExport } from './commands/export';
import { registerFollow } from './commands/follow';
import { registerImport } from './commands/import';
import { registerJobs } from './commands/jobs';
import { registerLogin } from './commands/login';
import { registerMigrate } from './commands/migrate';
import { registerOperations } from './commands/operations';
import { registerProfiles } from './commands/profiles';
import { registerRepackage } from './commands/repackage';
import { registerResources } from './commands/resource-commands';
import { registerSeed } from './commands/seed';
import { registerServe } from './commands/serve';
import { registerWorker } from './commands/worker';
import { registerTags } from './commands/tags';
import { registerTokens } from './commands/tokens';
import { registerApps } from './commands/apps';
import { registerTui } from './commands/tui';
import { registerUsers } from './commands/users';

/**
 * The `reelbase` command tree, writing through `io`. Settings are made before the subcommands
 * are added because commander copies them into each subcommand at creation.
 */
export function createProgram(io: CliIo): Command {
  const program = new Command('reelbase')
    .description('reelbase: a self-hosted video hosting API — server and administration tool')
    .version(pkg.version, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showHelpAfterError('(add --help for usage)')
    .helpCommand(true);
  registerServe(program, io);
  registerWorker(program, io);
  registerRepackage(program, io);
  registerJobs(program, io);
  registerBlobs(program, io);
  registerSeed(program, io);
  registerUsers(program, io);
  registerTokens(program, io);
  registerApps(program, io);
  registerApi(program, io);
  registerCall(program, io);
  registerOperations(program, io);
  registerExport(program, io);
  registerImport(program, io);
  registerMigrate(program, io);
  registerBackup(program, io);
  registerBatch(program, io);
  registerFollow(program, io);
  registerTags(program, io);
  registerLogin(program, io);
  registerProfiles(program, io);
  registerResources(program, io);
  registerTui(program, io);
  program.addHelpText(
    'after',
    [
      '',
      'Exit codes: 0 ok, 1 API or runtime error, 2 usage error.',
      '',
      'Examples:',
      '  reelbase serve --port 8080 --store sqlite:./data/reelbase.db',
      '  reelbase users create --name Alice --json',
      '  reelbase tokens create --user 2 --scopes public,private,edit,upload',
      '  reelbase login --base-url http://127.0.0.1:8080 --token $TOKEN',
      '  reelbase videos list --all',
      '  reelbase api GET /me --token $TOKEN',
      '  reelbase call users.videos.list --all --fields uri,name --token $TOKEN',
    ].join('\n'),
  );
  return program;
}
