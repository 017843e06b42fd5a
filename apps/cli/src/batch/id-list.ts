import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cwdOf } from '../context';
import { UsageError } from '../errors';
import { line, type CliIo } from '../io';

/** Reads a resource reference (`7`, `/videos/7`, a link…) as the id or slug its paths take; null when it is none. */
export type RefParser = (raw: string) => string | null;

/** The path of an http(s) URL, or the text itself. */
function pathOf(raw: string): string {
  if (!/^https?:\/\//i.test(raw)) return raw;
  try {
    return new URL(raw).pathname;
  } catch {
    return raw;
  }
}

/** `7`, `/users/7`, `/users/alice` (a custom link), `alice`, or a user's link `https://host/users/7`. */
export const userRef: RefParser = (raw) => {
  const path = pathOf(raw);
  return /^\/users\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path)?.[1] ?? (/^[A-Za-z0-9_-]{1,64}$/.test(path) ? path : null);
};

/** `7`, `/videos/7`, or a video's link `https://host/videos/7/player`. */
export const videoRef: RefParser = (raw) => {
  const path = pathOf(raw);
  return /^\/videos\/(\d{1,18})(\/player)?\/?$/.exec(path)?.[1] ?? (/^\d{1,18}$/.test(path) ? path : null);
};

/**
 * The references given as arguments and in a file (one per line; blank lines and `#` comments
 * skipped), each once, in order. Every unreadable entry is reported on stderr with its file and
 * line, then a usage error: nothing is sent when any entry is wrong.
 */
export function collectRefs(io: CliIo, what: string, parse: RefParser, args: readonly string[], file?: string): string[] {
  const entries = args.map((raw) => ({ raw: raw.trim(), from: 'argument' }));
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(cwdOf(io), file), 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    text.split('\n').forEach((raw, i) => {
      const value = raw.trim();
      if (value !== '' && !value.startsWith('#')) entries.push({ raw: value, from: `${file}:${i + 1}` });
    });
  }
  const refs = new Set<string>();
  const bad = entries.filter((e) => {
    const ref = parse(e.raw);
    if (ref !== null) refs.add(ref);
    return ref === null;
  });
  for (const e of bad.slice(0, 20)) line(io.stderr, `${e.from}: "${e.raw}" is not a ${what} id or URI`);
  if (bad.length) throw new UsageError(`${bad.length} ${what} reference${bad.length === 1 ? ' is' : 's are'} not readable; nothing was sent`);
  if (!refs.size) throw new UsageError(`name at least one ${what}`);
  return [...refs];
}

/** Splits `items` into chunks of at most `size`. */
export const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
