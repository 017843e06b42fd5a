import type { Command } from 'commander';
import { Option } from 'commander';
import { AccountInputError, accounts, createAccountUser, createUser, findUser, loadLinkSigner, loadUserFacts, recountUploadQuota, representUser, setPassword, type Service, type UserRecord } from '@reelbase/core';
import { envOf, fromEnv, withService } from '../context';
import { UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { jsonOption, storeOption } from './options';
import { readPasswordStdin } from './password-stdin';

interface CreateOptions {
  name: string;
  account?: string;
  location?: string;
  bio?: string;
  email?: string;
  passwordStdin?: boolean;
  store?: string;
  json?: boolean;
}

interface SetPasswordOptions {
  email?: string;
  passwordStdin?: boolean;
  store?: string;
  json?: boolean;
}

/** An account mistake (a taken email, a short password) is the caller's: exit 2. */
const accountInput = (e: unknown): unknown => (e instanceof AccountInputError ? new UsageError(e.message) : e);

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
    .option('--email <address>', 'the email they sign in with (with --password-stdin)')
    .option('--password-stdin', 'read their password from standard input (with --email)')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (opts: CreateOptions) => {
      const name = opts.name.trim();
      if (!name || name.length > 256) throw new UsageError('--name must be 1 to 256 characters');
      if ((opts.email === undefined) !== !opts.passwordStdin) throw new UsageError('--email and --password-stdin go together: a user signs in with both');
      const password = opts.passwordStdin ? await readPasswordStdin(io) : undefined;
      await withService(io, opts.store, async (service) => {
        const facts = { name, account: opts.account, location: opts.location, bio: opts.bio };
        const user = await (password !== undefined
          ? createAccountUser(service.store, service.now(), { ...facts, email: opts.email!, password }, service.config.defaultAccount).catch((e: unknown) => {
              throw accountInput(e);
            })
          : service.store.transaction((tx) => createUser(tx, service.now(), facts, service.config.defaultAccount)));
        const representation = await userRepresentation(service, user);
        if (opts.json) return io.stdout(json(representation));
        line(io.stdout, `Created user ${user.id} "${user.name}" (account ${user.account}).`);
        line(io.stdout, `  uri   ${representation.uri}`);
        // The store does not know where its servers answer: links use REELBASE_BASE_URL, or the default origin.
        const origin = fromEnv(envOf(io), 'REELBASE_BASE_URL') ? '' : ` (on ${service.config.baseUrl}, the default: set REELBASE_BASE_URL to your server's address)`;
        line(io.stdout, `  link  ${representation.link}${origin}`);
        const store = opts.store ? ` --store ${opts.store}` : '';
        line(io.stdout, `Give it a token: reelbase tokens create --user ${user.id} --scopes all${store}`);
      });
    });
  users
    .command('set-password')
    .description('set a user’s sign-in password, read from standard input (and their email, which a user without one needs)')
    .argument('<id>', 'user id (or custom link slug)')
    .requiredOption('--password-stdin', 'read the password from standard input')
    .option('--email <address>', 'the email they sign in with (needed the first time)')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (id: string, opts: SetPasswordOptions) => {
      const password = await readPasswordStdin(io);
      await withService(io, opts.store, async (service) => {
        const user = await findUser(service.store, id);
        if (!user) throw new Error(`no user "${id}" in this store`);
        const account = await setPassword(service.store, service.now(), user.id, password, opts.email).catch((e: unknown) => {
          throw accountInput(e);
        });
        if (opts.json) return io.stdout(json({ user: `/users/${user.id}`, email: account.email }));
        line(io.stdout, `Set the password of user ${user.id} "${user.name}" (signs in as ${account.email}).`);
      });
    });
  users
    .command('recount-quota')
    .description('count every user\'s upload quota (upload_quota.space.used) from their videos; run once on a store from before quotas were counted')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (opts: { store?: string; json?: boolean }) => {
      await withService(io, opts.store, async (service) => {
        let users = 0;
        const changed = await recountUploadQuota(
          service.store,
          (done) => {
            users = done;
            if (!opts.json) line(io.stderr, `reelbase: recounting upload quotas: ${done} users`);
          },
          service.now(),
        );
        if (opts.json) return io.stdout(json({ users, changed }));
        line(io.stdout, `Recounted the upload quota of ${users} user${users === 1 ? '' : 's'}; ${changed} had a figure corrected.`);
      });
    });
}

/** The User representation as the user themselves sees it, at the latest version. */
export async function userRepresentation(service: Service, user: UserRecord) {
  const version = [3, 4, 0] as const;
  const [facts] = await loadUserFacts(service.store, [user], user, version);
  const ctx = { baseUrl: service.config.baseUrl, version, viewer: user, links: await loadLinkSigner(service.store, service.now()), now: service.now(), uploadQuotaBytes: service.config.uploadQuotaBytes };
  return representUser(user, ctx, facts) as Record<string, unknown> & { uri: string; link: string };
}
