import { statSync } from 'node:fs';
import { describeStore, type StoreSpec } from './store-spec';

const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

/**
 * The warning `serve` prints for a JSON store past the driver's ceiling (a write's p99 over 50 ms
 * beyond it), pointing to `reelbase migrate`; null for any other store.
 */
export async function jsonCeilingWarning(spec: StoreSpec): Promise<string | null> {
  if (spec.driver !== 'json' || !spec.path) return null;
  // Loaded here: only a JSON store needs the JSON driver.
  const { jsonStoreCeilingBytes } = await import('@reelbase/store-json');
  const bytes = statSync(spec.path, { throwIfNoEntry: false })?.size ?? 0;
  if (bytes <= jsonStoreCeilingBytes) return null;
  const sqlite = spec.path.replace(/\.json$/i, '') + '.db';
  return [
    `Warning: ${describeStore(spec)} is ${mib(bytes)}, past the JSON driver's ceiling of ${mib(jsonStoreCeilingBytes)}:`,
    'every write rewrites the whole file, and beyond that size a write takes over 50 ms (99th percentile).',
    `Move it to SQLite:  reelbase migrate --from ${describeStore(spec)} --to sqlite:${sqlite}`,
  ].join('\n');
}
