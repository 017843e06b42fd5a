import type { Command } from 'commander';
import { queueRepackaging } from '@reelbase/core';
import { startWorker } from '@reelbase/worker';
import { openService } from '../context';
import { line, type CliIo } from '../io';
import { storeOption } from './options';

/**
 * `reelbase repackage`: videos transcoded before renditions were fragmented MP4s kept a second,
 * MPEG-TS copy of every rung for HLS. This queues a job per such video that rewrites its MP4s as
 * fragmented MP4s by stream copy (no re-encode), swaps them in and removes the old files; a
 * running server or `reelbase worker` runs the jobs, or this command with `--now`.
 */
export function registerRepackage(program: Command, io: CliIo): void {
  program
    .command('repackage')
    .description('re-package videos transcoded before fragmented MP4s (one copy per rendition, no re-encode) and free their MPEG-TS copies')
    .addOption(storeOption())
    .option('--now', 'run the jobs here and wait for them, instead of leaving them to the workers')
    .action(async (opts: { store?: string; now?: boolean }) => {
      const { service, target, filesDir } = await openService(io, opts.store);
      try {
        const queued = await queueRepackaging(service.store, service.now());
        line(io.stdout, `Queued ${queued} video${queued === 1 ? '' : 's'} to re-package on store ${target}.`);
        if (opts.now && queued) {
          const worker = startWorker(service, { filesDir, start: false });
          const ran = await worker.drain();
          await worker.stop();
          line(io.stdout, `Ran ${ran} job${ran === 1 ? '' : 's'}.`);
        }
      } finally {
        await service.close();
      }
    });
}
