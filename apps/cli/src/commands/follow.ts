import type { Command } from 'commander';
import { openClient, type TargetOptions } from '../client';
import type { CliIo } from '../io';
import { bulkHelp, plural, runBulk, type BulkOptions } from '../run-bulk';
import { runOperation, type OutputOptions } from '../run-operation';
import { chunks, collectRefs, userRef } from '../batch/id-list';
import { addBatchOptions } from './batch-options';
import { addOperationFlags } from './operation-flags';
import { addOutputOptions, addTargetOptions, jsonOption } from './options';

type ChangeOptions = BulkOptions & { from?: string };

/** SPEC.md, Limits: at most 100 users in one POST /me/following. */
const followChunk = 100;

const usersArgument = 'user ids or URIs: 7, /users/7, /users/alice, or a link';
const fromHelp = 'also read users from a file, one id or URI per line (blank lines and # comments skipped)';

/** `reelbase follow add|remove|list`: whom you follow, many at a time. */
export function registerFollow(program: Command, io: CliIo): void {
  const follow = program.command('follow').description('follow and unfollow users in bulk; list whom a user follows');

  const add = follow
    .command('add')
    .description('follow users, 100 per request through the bulk endpoint (POST /me/following), waiting out 429/9006')
    .argument('[users...]', usersArgument)
    .option('--from <file>', fromHelp);
  addBatchOptions(add, 1);
  addTargetOptions(add)
    .addOption(jsonOption())
    .addHelpText('after', bulkHelp(['reelbase follow add 7 /users/8', 'reelbase follow add --from users.txt --base-url http://127.0.0.1:8080 --token $TOKEN']))
    .action(async (args: string[], opts: ChangeOptions) => {
      const users = collectRefs(io, 'user', userRef, args, opts.from);
      await runBulk(io, opts, {
        label: 'follow',
        tasks: chunks(users, followChunk),
        send: (client, chunk) => client.call('users.following.add', { users: chunk.map((u) => `/users/${u}`) }),
        size: (chunk) => chunk.length,
        describe: (chunk) => (chunk.length === 1 ? `user ${chunk[0]}` : `users ${chunk[0]}…${chunk[chunk.length - 1]} (${chunk.length})`),
        done: (n, requests) => `Followed ${plural(n, 'user')} (${plural(requests, 'request')}).`,
      });
    });

  const remove = follow
    .command('remove')
    .description('stop following users (one request each)')
    .argument('[users...]', usersArgument)
    .option('--from <file>', fromHelp);
  addBatchOptions(remove, 8);
  addTargetOptions(remove)
    .addOption(jsonOption())
    .addHelpText('after', bulkHelp(['reelbase follow remove 7 8', 'reelbase follow remove --from users.txt']))
    .action(async (args: string[], opts: ChangeOptions) => {
      await runBulk(io, opts, {
        label: 'unfollow',
        tasks: collectRefs(io, 'user', userRef, args, opts.from),
        send: (client, user) => client.call('users.following.delete', { follow_user_id: user }),
        describe: (user) => `user ${user}`,
        done: (n) => `Unfollowed ${plural(n, 'user')}.`,
      });
    });

  const list = follow
    .command('list')
    .description('list the users you (or --user) follow, the latest followed first')
    .option('--user <id>', "another user's follows (default: yours)");
  const listParams = addOperationFlags(list, 'users.following.list');
  addOutputOptions(list, { pages: true });
  addTargetOptions(list)
    .addHelpText('after', ['', 'Examples:', '  reelbase follow list --all', '  reelbase follow list --user 7 --jsonl --all'].join('\n'))
    .action(async (opts: TargetOptions & OutputOptions & { user?: string }) => {
      const params = listParams(opts);
      if (opts.user !== undefined) params.user_id = collectRefs(io, 'user', userRef, [opts.user])[0];
      const client = await openClient(io, opts);
      try {
        await runOperation(io, client, 'users.following.list', params, { ...opts, columns: ['uri', 'name', 'location'] });
      } finally {
        await client.close();
      }
    });
}
