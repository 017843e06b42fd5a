import type { Command } from 'commander';
import { createToken, findUser, parseScopes, type Scope } from '@reelbase/core';
import { withService } from '../context';
import { UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { jsonOption, storeOption } from './options';
import { userRepresentation } from './users';

interface CreateOptions {
  user: string;
  scopes: string;
  store?: string;
  json?: boolean;
}

/** `reelbase tokens create`: issues an access token for a user; the token is shown once. */
export function registerTokens(program: Command, io: CliIo): void {
  const tokens = program.command('tokens').description('manage access tokens directly in a store');
  tokens
    .command('create')
    .description('create an access token for a user and print it (shown only once)')
    .requiredOption('--user <id>', 'user id (or custom link slug)')
    .requiredOption('--scopes <list>', 'all, or a comma list of: public, private, create, edit, delete, interact, upload, …')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (opts: CreateOptions) => {
      const scopes = scopesFromFlag(opts.scopes);
      await withService(io, opts.store, async (service) => {
        const user = await findUser(service.store, opts.user);
        if (!user) throw new Error(`no user "${opts.user}" in this store`);
        const { token } = await createToken(service.store, service.now(), user.id, scopes);
        const answer = {
          access_token: token,
          token_type: 'bearer',
          scope: scopes.join(' '),
          user: userRepresentation(user, service.config.baseUrl),
        };
        if (opts.json) return io.stdout(json(answer));
        line(io.stdout, `Access token for user ${user.id} "${user.name}", scopes: ${answer.scope}`);
        line(io.stdout, 'It is shown only this once:');
        line(io.stdout);
        line(io.stdout, `    ${token}`);
        line(io.stdout);
        line(io.stdout, `Use it as: Authorization: Bearer ${token}`);
      });
    });
}

/** `all` or a comma list; an unknown word is a usage error (exit 2). */
export function scopesFromFlag(flag: string): Scope[] {
  if (!flag.trim()) throw new UsageError('--scopes needs "all" or at least one scope');
  try {
    return parseScopes(flag);
  } catch (e) {
    throw new UsageError(`--scopes: ${(e as Error).message}`);
  }
}
