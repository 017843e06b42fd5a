import type { Command } from 'commander';
import { envOf } from '../context';
import { UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { maskToken, profilesPath, profileTarget, readProfiles, writeProfiles } from '../profiles';
import { renderTable } from '../render/table';
import { jsonOption } from './options';

/** `reelbase profiles [list]` and `reelbase profiles use NAME`. Tokens are only ever shown masked. */
export function registerProfiles(program: Command, io: CliIo): void {
  const profiles = program.command('profiles').description('list the profiles saved by `reelbase login` (the default marked *), or pick the default');
  profiles
    .command('list', { isDefault: true })
    .description('list the saved profiles; tokens are masked')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const env = envOf(io);
      const file = await readProfiles(env);
      const rows = Object.entries(file.profiles).map(([name, p]) => ({
        name,
        default: name === file.default,
        ...(p.base_url !== undefined ? { base_url: p.base_url } : { store: p.store }),
        user: p.user ?? null,
        token: maskToken(p.token),
      }));
      if (opts.json) return io.stdout(json(rows));
      if (!rows.length) return line(io.stderr, 'No profiles yet; save one with `reelbase login --base-url URL --token TOKEN`.');
      const table = rows.map((r) => ({
        ...r,
        default: r.default ? '*' : '',
        target: profileTarget(file.profiles[r.name]),
        user: r.user ? `${r.user.name} (${r.user.uri})` : '',
      }));
      io.stdout(renderTable(table, ['default', 'name', 'target', 'user', 'token']));
      line(io.stderr, `(${profilesPath(env)})`);
    });
  profiles
    .command('use')
    .description('make a saved profile the default')
    .argument('<name>', 'profile name')
    .action(async (name: string) => {
      const env = envOf(io);
      const file = await readProfiles(env);
      if (!Object.hasOwn(file.profiles, name)) throw new UsageError(`no profile "${name}" (see \`reelbase profiles\`)`);
      file.default = name;
      await writeProfiles(env, file);
      line(io.stdout, `Default profile: "${name}".`);
    });
}
