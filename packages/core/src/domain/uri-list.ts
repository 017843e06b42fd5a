import { ApiError, codes, invalidField } from '../engine/errors';
import type { Context } from '../engine/operation';

const maxUriLength = 256;

/**
 * The URIs a body names in `field` (`user_uri`, `video_uri`), for operations that take one or a
 * list: `{"user_uri": …}` (a string or a list), a form field (comma-separated), or a JSON list of
 * `{"user_uri": …}` objects or of strings. 400 naming the field when none is given, an entry is
 * not a URI string, or more than `max` are given (code `maxCode`).
 */
export function readUriList(ctx: Context<unknown>, field: string, max: number, maxCode?: number): string[] {
  const { body, bodyKind, query } = ctx.request;
  if (bodyKind === 'json' && (typeof body !== 'object' || body === null)) {
    throw new ApiError(400, codes.badBody, 'The request body could not be read.', `The body must be an object with ${field} or a JSON list.`);
  }
  const entries: unknown[] = Array.isArray(body)
    ? body.map((entry) => (entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>)[field] : entry))
    : [({ ...query, ...(body as Record<string, unknown> | undefined) })[field] ?? []].flat();
  const uris = entries.flatMap((entry) => {
    if (typeof entry !== 'string') throw invalidField(field, 'must be a URI string or a list of them');
    return entry.split(',').map((s) => s.trim()).filter((s) => s !== '');
  });
  if (uris.length === 0) throw invalidField(field, 'is required');
  if (uris.length > max) throw invalidField(field, `may name at most ${max} entries; ${uris.length} were given`, maxCode);
  const long = uris.find((uri) => uri.length > maxUriLength);
  if (long !== undefined) throw invalidField(field, `entries must be at most ${maxUriLength} characters long`);
  return [...new Set(uris)];
}
