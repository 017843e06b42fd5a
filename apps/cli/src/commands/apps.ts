import type { Command } from 'commander';
import { AppInputError, createApp, deleteApp, findUser, type AppRecord, type Store } from '@reelbase/core';
import { withService } from '../context';
import { UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { collect, jsonOption, storeOption } from './options';

interface CreateOptions {
  name: string;
  redirectUri: string[];
  user?: string;
  public?: boolean;
  store?: string;
  json?: boolean;
}

interface StoreOptions {
  store?: string;
  json?: boolean;
}

/** An app as `apps list` and `apps create` print it: never its secret's hash. */
const shown = (app: AppRecord) => ({
  uri: `/apps/${app.id}`,
  name: app.name,
  client_id: app.client_id,
  public: app.secret_hash === null,
  user: `/users/${app.user_id}`,
  redirect_uris: app.redirect_uris,
  created_time: app.created_time,
});

/** `reelbase apps create|list|delete`: OAuth clients (issue 35), straight in the store. */
export function registerApps(program: Command, io: CliIo): void {
  const apps = program.command('apps').description('manage OAuth apps (clients) directly in a store');
  apps
    .command('create')
    .description('register an app and print its client_id and client_secret (the secret is shown only once)')
    .requiredOption('--name <name>', 'the app’s name, shown on the consent page')
    .requiredOption('--redirect-uri <uri>', 'a redirect URI, matched exactly (repeat for more)', collect, [])
    .option('--user <id>', 'the user who owns it (id or custom link slug; default 1, the first user)')
    .option('--public', 'a native or single-page app: no secret, PKCE (S256) required')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (opts: CreateOptions) => {
      await withService(io, opts.store, async (service) => {
        const owner = await findUser(service.store, opts.user ?? '1');
        if (!owner) throw new Error(`no user "${opts.user ?? '1'}" in this store`);
        let made: Awaited<ReturnType<typeof createApp>>;
        try {
          made = await createApp(service.store, service.now(), { name: opts.name, userId: owner.id, redirectUris: opts.redirectUri, public: opts.public });
        } catch (e) {
          throw e instanceof AppInputError ? new UsageError(e.message) : e;
        }
        const answer = { ...shown(made.app), client_secret: made.secret };
        if (opts.json) return io.stdout(json(answer));
        line(io.stdout, `Registered app ${made.app.id} "${made.app.name}" for user ${owner.id}.`);
        line(io.stdout, `  client_id      ${made.app.client_id}`);
        if (made.secret) line(io.stdout, `  client_secret  ${made.secret}   (shown only this once)`);
        else line(io.stdout, '  public app: no secret; it must use PKCE (S256)');
        for (const uri of made.app.redirect_uris) line(io.stdout, `  redirect_uri   ${uri}`);
      });
    });
  apps
    .command('list')
    .description('list the registered apps, oldest first')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (opts: StoreOptions) => {
      await withService(io, opts.store, async (service) => {
        const list = (await allApps(service.store)).map(shown);
        if (opts.json) return io.stdout(json(list));
        if (!list.length) return line(io.stdout, 'No apps. Register one: reelbase apps create --name NAME --redirect-uri URI');
        for (const app of list) line(io.stdout, `${app.uri}  ${app.client_id}  ${app.public ? 'public' : 'confidential'}  "${app.name}"  ${app.redirect_uris.join(' ')}`);
      });
    });
  apps
    .command('delete')
    .description('delete an app and revoke every token issued to it')
    .argument('<id>', 'the app’s id (the last segment of its uri)')
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (id: string, opts: StoreOptions) => {
      await withService(io, opts.store, async (service) => {
        const revoked = /^\d{1,18}$/.test(id) ? await deleteApp(service.store, id) : null;
        if (revoked === null) throw new Error(`no app "${id}" in this store`);
        if (opts.json) return io.stdout(json({ deleted: `/apps/${id}`, revoked }));
        line(io.stdout, `Deleted app ${id}; revoked ${revoked} token${revoked === 1 ? '' : 's'}.`);
      });
    });
}

const allApps = async (store: Store): Promise<AppRecord[]> => (await store.find<AppRecord>('apps', { orderBy: [{ field: 'created_time', direction: 'asc' }] })).items;
