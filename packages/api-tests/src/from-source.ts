import { fileURLToPath } from 'node:url';

/**
 * Node's arguments that run a TypeScript entry from source, as the test processes themselves run
 * (scripts/test.mjs): for the servers, workers and CLIs that tests start. The tests always run the
 * current source, never a build; scripts/source-loader says why not tsx.
 */
export const fromSource = ['--import', fileURLToPath(new URL('../../../scripts/source-loader/register.mjs', import.meta.url)), '--conditions=source'];
