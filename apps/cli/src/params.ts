import type { CallParams } from '@reelbase/http';
import { UsageError } from './errors';

/** `--name value`, `--name=value`, a bare `--flag` (true) and `-d name=value`; `-` in names reads as `_`. */
export function parseParams(rest: readonly string[], data: readonly string[]): CallParams {
  const pairs: [string, string][] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--') || arg === '--') throw new UsageError(`unexpected argument "${arg}"; give parameters as --name value or -d name=value`);
    const eq = arg.indexOf('=');
    if (eq > 0) pairs.push([arg.slice(2, eq), arg.slice(eq + 1)]);
    else if (i + 1 < rest.length && !rest[i + 1].startsWith('--')) pairs.push([arg.slice(2), rest[++i]]);
    else pairs.push([arg.slice(2), 'true']);
  }
  for (const pair of data) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`-d expects key=value (got "${pair}")`);
    pairs.push([pair.slice(0, eq), pair.slice(eq + 1)]);
  }
  return nestParams(pairs);
}

/** Name/value pairs as operation params, dot paths nested: `privacy.view=nobody` → `{ privacy: { view: 'nobody' } }`. */
export function nestParams(pairs: Iterable<readonly [string, string]>): CallParams {
  const params: CallParams = {};
  for (const [rawName, value] of pairs) {
    const parts = rawName.replace(/-/g, '_').split('.');
    if (parts.some((p) => !/^\w+$/.test(p))) throw new UsageError(`invalid parameter name "${rawName}"`);
    let node = params as Record<string, unknown>;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (next !== undefined && (typeof next !== 'object' || next === null)) throw new UsageError(`parameter "${rawName}" is given both as a value and as an object`);
      node = (node[part] ??= {}) as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = value;
  }
  return params;
}
