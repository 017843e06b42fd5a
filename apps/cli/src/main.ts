/** Process entry from source: `node --import tsx --conditions=source apps/cli/src/main.ts …`. */
import { main } from './index';

await main();
