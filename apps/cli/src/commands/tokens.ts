import type { Command } from 'commander';
import { createToken, findUser, parseScopes, revokeToken, revokeUserTokens, type Scope, type Service } from '@reelbase/core';
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

interface RevokeOptions {
  user?: string;
  all?: boolean;
  store?: string;
  json?: boolean;
}

/** `reelbase tokens create` issues an access token for a user (shown once); `tokens revoke` withdraws tokens. */
export function registerTokens(program: Command, io: CliIo): void {
  const tokens = program.command('tokens').description('manage access tokens directly in a store');
  tokens
    .command('create')
    .description('create an access token for a user and print it (shown only once)')
    .requiredOption('--user <id>', 'user id (or custom link slug)')
    .requiredOption('--scopes <list>', 'all (every scope an app may ask for), or a comma list of: public, private, create, edit, delete, interact, upload, …; admin (the job console) only when named, e.g. all,admin')
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
          user: await userRepresentation(service, user),
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
  tokens
    .command('revoke')
    .description('revoke an access token, or every token of a user; a server on the same SQLite store refuses it from its next request')
    .argument('[token]', 'the access token to revoke')
    .option('--user <id>', 'with --all: the user (id or custom link slug) whose tokens to revoke')
    .option('--all', 'revoke every token of --user')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (token: string | undefined, opts: RevokeOptions) => {
      const byUser = opts.user !== undefined || opts.all === true;
      if (token !== undefined && byUser) throw new UsageError('give either a token or --user ID --all, not both');
      if (token === undefined && !(opts.user !== undefined && opts.all)) throw new UsageError('give the token to revoke, or --user ID --all to revoke every token of a user');
      await withService(io, opts.store, async (service) => {
        const { revoked, userId } = token !== undefined ? await revokeOne(service, token.trim()) : await revokeAll(service, opts.user!);
        // An app's own token (client credentials) has no user.
        const user = userId === null ? null : `/users/${userId}`;
        if (opts.json) return io.stdout(json({ revoked, user }));
        const whose = userId === null ? 'an app (no user)' : `user ${userId}`;
        line(io.stdout, token !== undefined ? `Revoked the access token of ${whose}.` : `Revoked ${revoked} access token${revoked === 1 ? '' : 's'} of user ${userId}.`);
      });
    });
}

async function revokeOne(service: Service, token: string): Promise<{ revoked: number; userId: string | null }> {
  const record = await revokeToken(service.store, token);
  if (!record) throw new Error('no such access token in this store (it may be revoked already)');
  return { revoked: 1, userId: record.user_id };
}

async function revokeAll(service: Service, idOrSlug: string): Promise<{ revoked: number; userId: string | null }> {
  const user = await findUser(service.store, idOrSlug);
  if (!user) throw new Error(`no user "${idOrSlug}" in this store`);
  return { revoked: await revokeUserTokens(service.store, user.id), userId: user.id };
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
