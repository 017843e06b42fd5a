import type { Command } from 'commander';
import { Option } from 'commander';
import { accounts, createUser, loadLinkSigner, loadUserFacts, representUser, type Service, type UserRecord } from '@reelbase/core';
import { withService } from '../context';
import { UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { jsonOption, storeOption } from './options';

interface CreateOptions {
  name: string;
  account?: string;
  location?: string;
  bio?: string;
  store?: string;
  json?: boolean;
}

/** `reelbase users create`: a user straight in the store, printed as its User representation. */
export function registerUsers(program: Command, io: CliIo): void {
  const users = program.command('users').description('manage users directly in a store');
  users
    .command('create')
    .description('create a user and print it')
    .requiredOption('--name <name>', 'display name')
    .addOption(new Option('--account <plan>', 'plan (default: the service default, pro)').choices(accounts))
    .option('--location <text>', 'location')
    .option('--bio <text>', 'biography')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (opts: CreateOptions) => {
      const name = opts.name.trim();
      if (!name || name.length > 256) throw new UsageError('--name must be 1 to 256 characters');
      await withService(io, opts.store, async (service) => {
        const user = await service.store.transaction((tx) =>
          createUser(tx, service.now(), { name, account: opts.account, location: opts.location, bio: opts.bio }, service.config.defaultAccount),
        );
        const representation = await userRepresentation(service, user);
        if (opts.json) return io.stdout(json(representation));
        line(io.stdout, `Created user ${user.id} "${user.name}" (account ${user.account}).`);
        line(io.stdout, `  uri   ${representation.uri}`);
        line(io.stdout, `  link  ${representation.link}`);
        const store = opts.store ? ` --store ${opts.store}` : '';
        line(io.stdout, `Give it a token: reelbase tokens create --user ${user.id} --scopes all${store}`);
      });
    });
}

/** The User representation as the user themselves sees it, at the latest version. */
export async function userRepresentation(service: Service, user: UserRecord) {
  const version = [3, 4, 0] as const;
  const [facts] = await loadUserFacts(service.store, [user], user, version);
  const ctx = { baseUrl: service.config.baseUrl, version, viewer: user, links: await loadLinkSigner(service.store, service.now()), now: service.now() };
  return representUser(user, ctx, facts) as Record<string, unknown> & { uri: string; link: string };
}
