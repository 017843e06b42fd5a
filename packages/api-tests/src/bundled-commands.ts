import { dirname, join } from 'node:path';

/**
 * Node's arguments that run the reelbase CLI (`cliCommand`) and the crash-safety tests' server
 * (`crashServerCommand`, src/crash-server.ts) from the current source, for tests that start them as
 * processes of their own: one esbuild bundle of both (scripts/cli-bundle.mjs), which starts in a
 * third of the CPU the source loader takes on Node 20. scripts/test.mjs makes it once a run and names
 * it in REELBASE_TEST_CLI; a test file run on its own makes (or finds) it here.
 * `--conditions=source`: threads they start from source (the SQLite bulk writer's) load our
 * packages' source, as in a process run through the loader.
 */
const cli =
  process.env.REELBASE_TEST_CLI ??
  (await ((await import(new URL('../../../scripts/cli-bundle.mjs', import.meta.url).href)) as { cliBundle(): Promise<string> }).cliBundle());

const node = ['--conditions=source', '--enable-source-maps'];
export const cliCommand: readonly string[] = [...node, cli];
export const crashServerCommand: readonly string[] = [...node, join(dirname(cli), 'crash-server.js')];
