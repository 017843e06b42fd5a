import { fileURLToPath } from 'node:url';

/**
 * Node's arguments that run a TypeScript entry from source, as the test processes themselves run
 * (scripts/test.mjs): for scripts that tests start which import our source (`-e` programs). The
 * CLI and the crash tests' server start from a bundle of the source instead (bundled-commands.ts).
 * The tests always run the current source, never a build; scripts/source-loader says why not tsx.
 */
export const fromSource = ['--import', fileURLToPath(new URL('../../../scripts/source-loader/register.mjs', import.meta.url)), '--conditions=source'];
