import { Option } from 'commander';

/** Shared flag definitions, so every command words them the same way. */
export const storeOption = () =>
  new Option('--store <spec>', 'store to open: sqlite:PATH | sqlite::memory: | json:PATH | json:memory (env REELBASE_STORE; default sqlite:./data/reelbase.db)');

export const jsonOption = () => new Option('--json', 'print machine-readable JSON on stdout');

/** Accumulates a repeatable flag's values. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];
