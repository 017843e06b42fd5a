/** A batch file: JSON lines of `{ "method", "path", "body"?, "id"? }`. */

/** One request of a batch, with its 1-based line number in the file. */
export interface BatchLine {
  line: number;
  method: string;
  /** Path with optional query string, e.g. `/me/videos?fields=uri`. */
  path: string;
  /** Sent as JSON when present. */
  body?: unknown;
  /** The caller's own name for the line, copied into its result. */
  id?: string | number;
}

export interface LineProblem {
  line: number;
  message: string;
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const keys = ['method', 'path', 'body', 'id'];

/** Parses every line (blank ones are skipped but keep their numbers) and lists every problem. */
export function parseBatch(text: string): { lines: BatchLine[]; problems: LineProblem[] } {
  const lines: BatchLine[] = [];
  const problems: LineProblem[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const parsed = parseLine(raw, i + 1);
    if ('message' in parsed) problems.push(parsed);
    else lines.push(parsed);
  });
  return { lines, problems };
}

function parseLine(raw: string, line: number): BatchLine | LineProblem {
  const problem = (message: string): LineProblem => ({ line, message });
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return problem(`not valid JSON (${(e as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return problem('must be an object with method and path');
  const entry = value as Record<string, unknown>;
  const unknown = Object.keys(entry).find((k) => !keys.includes(k));
  if (unknown !== undefined) return problem(`unknown key "${unknown}" (expected ${keys.join(', ')})`);
  const { method, path, body, id } = entry;
  if (typeof method !== 'string' || !methods.includes(method.toUpperCase())) return problem(`method must be one of ${methods.join(', ')}`);
  if (typeof path !== 'string' || !/^\/[^\s]*$/.test(path) || path.startsWith('//')) {
    return problem('path must be a path starting with "/" and without spaces, e.g. /me/videos (the server comes from --base-url)');
  }
  if (body !== undefined && method.toUpperCase() === 'GET') return problem('a GET takes no body; put its parameters in the query string');
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') return problem('id must be a string or a number');
  const parsed: BatchLine = { line, method: method.toUpperCase(), path };
  if (body !== undefined) parsed.body = body;
  if (id !== undefined) parsed.id = id;
  return parsed;
}
