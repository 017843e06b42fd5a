import { processIo } from './io';
import { quietThirdPartyNotices } from './node-support';
import { run } from './run';

export { run } from './run';
export { createProgram } from './program';
export { processIo, type CliIo } from './io';
export { UsageError, exitCodes } from './errors';
export { parseStoreSpec, openStore, describeStore, defaultStoreSpec, type StoreSpec } from './store-spec';
export { openBlobStore } from './blob-stores';
export { type Transport, type TransportRequest, type TransportResponse, jsonBody, formBody } from './transport/transport';
export { inProcessTransport } from './transport/in-process';
export { httpTransport } from './transport/http';
export { createClient, type Client, type ClientOptions } from '@reelbase/http';
export { renderCliReference } from './docs/cli-reference';
export { runTasks, type RunnerOptions, type RunSummary, type TaskOutcome } from './batch/runner';
export { systemClock, type Clock } from './batch/clock';

/** Runs the command line of this process and sets its exit code (the bin calls this). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  // A reader that stops early (`reelbase api GET / | head`, EPIPE) or a terminal closed under the
  // TUI (EIO) is not an error worth a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'EIO') throw e;
      process.exit(process.exitCode ?? 0);
    });
  }
  quietThirdPartyNotices();
  process.exitCode = await run(argv, processIo());
}
