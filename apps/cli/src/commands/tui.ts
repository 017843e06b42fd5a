import type { Command } from 'commander';
import { openClient, type TargetOptions } from '../client';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { addTargetOptions } from './options';

/**
 * `reelbase tui`: the interactive browser. Ink and React are imported inside the action, so no
 * other command (and no `--json` run) ever loads them.
 */
export function registerTui(program: Command, io: CliIo): void {
  addTargetOptions(
    program
      .command('tui')
      .description('browse your videos, channels, albums, folders, following and feed in a full-screen terminal UI, and edit videos'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Keys: ↑/↓ move · Enter open · Esc/q back or quit · Tab or 1-6 sections · n/p pages · / search',
        'On a video: e edit · l like · w watch later · t/T add/remove tag · a album · c channel · d delete.',
        '? in the TUI lists every key. It needs a terminal (stdin and stdout) and a token.',
        '',
        'Examples:',
        '  reelbase tui --store sqlite:./data/reelbase.db --token $TOKEN',
        '  reelbase tui --base-url http://127.0.0.1:8080 --token $TOKEN',
      ].join('\n'),
    )
    .action(async (opts: TargetOptions) => {
      const { screen } = io;
      if (!screen?.stdin.isTTY || !screen.stdout.isTTY) {
        throw new UsageError('reelbase tui needs an interactive terminal; for scripts use `reelbase call` or `reelbase api`');
      }
      const client = await openClient(io, opts);
      try {
        const { runTui } = await import('../tui/run');
        await runTui(client, screen, { apiVersion: opts.apiVersion });
      } finally {
        await client.close();
      }
    });
}
