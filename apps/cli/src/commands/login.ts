import { Option, type Command } from 'commander';
import { connect } from '../client';
import { cwdOf, envOf, fromEnv } from '../context';
import { ReportedFailure, UsageError } from '../errors';
import { line, type CliIo } from '../io';
import { checkProfileName, profileTarget, readProfiles, writeProfiles, type Profile } from '../profiles';
import { succeeded } from '../run-operation';
import { describeStore, parseStoreSpec } from '../store-spec';

interface LoginOptions {
  baseUrl?: string;
  store?: string;
  token?: string;
  profile?: string;
  default?: boolean;
}

/** `reelbase login` and `reelbase logout`: saved profiles, so later commands need no flags. */
export function registerLogin(program: Command, io: CliIo): void {
  program
    .command('login')
    .description('check a token (GET /me) and save it with its server (or store) as a profile')
    .addOption(new Option('--base-url <url>', 'the server the profile talks to').conflicts('store'))
    .option('--store <spec>', 'or a store on this machine: sqlite:PATH | json:PATH (saved with an absolute path)')
    .option('--token <token>', 'the access token to save (env REELBASE_TOKEN)')
    .option('--profile <name>', 'profile name', 'default')
    .option('--default', 'make it the default profile (the first profile always is)')
    .addHelpText(
      'after',
      [
        '',
        'The profile is saved in profiles.json (mode 0600) in $REELBASE_CONFIG_DIR, else',
        '$XDG_CONFIG_HOME/reelbase, else ~/.config/reelbase. Commands then pick their target in this',
        'order: flags (--base-url/--store/--token) > --profile > REELBASE_URL/REELBASE_STORE/',
        'REELBASE_TOKEN > REELBASE_PROFILE > the default profile > the default store, anonymous.',
        '',
        'Examples:',
        '  reelbase login --base-url http://127.0.0.1:8080 --token $TOKEN',
        '  reelbase login --base-url https://videos.example.com --token $TOKEN --profile prod --default',
        '  reelbase login --store sqlite:./data/reelbase.db --token $TOKEN --profile local',
      ].join('\n'),
    )
    .action(async (opts: LoginOptions) => {
      const env = envOf(io);
      const name = checkProfileName(opts.profile ?? 'default');
      const token = opts.token ?? fromEnv(env, 'REELBASE_TOKEN');
      if (!token) throw new UsageError('login needs --token (or REELBASE_TOKEN)');
      if (opts.baseUrl === undefined && opts.store === undefined) throw new UsageError('login needs --base-url URL (a server) or --store SPEC (a store on this machine)');
      const where: Pick<Profile, 'base_url' | 'store'> =
        opts.baseUrl !== undefined ? { base_url: opts.baseUrl.replace(/\/+$/, '') } : { store: describeStore(parseStoreSpec(opts.store!, cwdOf(io))) };
      const file = await readProfiles(env); // a damaged file stops us before anything is sent

      const client = await connect(io, { baseUrl: where.base_url, store: where.store, token, source: 'flags' });
      let answer;
      try {
        answer = await client.call('users.get', { fields: 'uri,name' });
      } finally {
        await client.close();
      }
      if (!succeeded(io, {}, answer)) throw new ReportedFailure(1);
      const user = answer.body as { uri: string; name: string };

      file.profiles[name] = { ...where, token, user: { uri: user.uri, name: user.name } };
      const makeDefault = opts.default || file.default === null || file.default === name || !Object.hasOwn(file.profiles, file.default);
      if (makeDefault) file.default = name;
      const path = await writeProfiles(env, file);
      line(io.stdout, `Logged in to ${profileTarget(file.profiles[name])} as "${user.name}" (${user.uri}).`);
      line(io.stdout, `Saved profile "${name}"${makeDefault ? ' (the default)' : ''} in ${path}`);
    });

  program
    .command('logout')
    .description('forget a saved profile and its token (default: the default profile)')
    .option('--profile <name>', 'the profile to remove')
    .action(async (opts: { profile?: string }) => {
      const env = envOf(io);
      const file = await readProfiles(env);
      const name = opts.profile ?? file.default;
      if (name === null) throw new Error('not logged in: there is no default profile (name one with --profile; see `reelbase profiles`)');
      if (!Object.hasOwn(file.profiles, name)) throw new UsageError(`no profile "${name}" (see \`reelbase profiles\`)`);
      const target = profileTarget(file.profiles[name]);
      delete file.profiles[name];
      if (file.default === name) file.default = null;
      await writeProfiles(env, file);
      line(io.stdout, `Logged out: removed profile "${name}" (${target}).`);
      const left = Object.keys(file.profiles);
      if (file.default === null && left.length) line(io.stderr, `No default profile now; pick one with \`reelbase profiles use ${left[0]}\`.`);
    });
}
