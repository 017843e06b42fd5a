import { validate, type Struct } from 'superstruct';
import { ApiError, codes, type InvalidParameter } from './errors';
import { copyJson } from '../store/copy-json';

/** Any superstruct struct, as the walkers below see it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyStruct = Struct<any, any>;

const numeric = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * Turns transport strings into the types the struct asks for: form and query values are all
 * strings, and comma-separated strings stand for lists (SPEC.md request convention 4). JSON
 * values get the same leniency for booleans and numbers sent as strings, as existing clients do.
 */
export function coerce(struct: AnyStruct, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  switch (struct.type) {
    case 'boolean':
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      return value;
    case 'integer':
    case 'number':
      return typeof value === 'string' && numeric.test(value) ? Number(value) : value;
    case 'array': {
      const list =
        typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter((s) => s !== '') : value;
      const item = struct.schema as AnyStruct | undefined;
      return Array.isArray(list) && item ? list.map((v) => coerce(item, v)) : list;
    }
    case 'object':
    case 'type': {
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      const schema = struct.schema as Record<string, AnyStruct>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] = Object.hasOwn(schema, k) ? coerce(schema[k], v) : v;
      }
      return out;
    }
    default:
      return value;
  }
}

/**
 * What each struct made of the queries it validated lately, by query: most reads are sent with no
 * parameters or with the same few (a client asks for page 1 of 25 again and again), and
 * validating them anew cost a list read more than a tenth of its time.
 */
const validated = new WeakMap<AnyStruct, Map<string, unknown>>();
const MAX_VALIDATED = 64;

/** Validates (dropping unknown fields) and answers the typed value, or throws a 400 listing every bad field. */
export function readParams<T>(struct: Struct<T, unknown>, input: unknown): T {
  const isObject = typeof input === 'object' && input !== null && !Array.isArray(input);
  if ((struct.type === 'object' || struct.type === 'type') && input !== undefined && !isObject) {
    throw new ApiError(400, codes.badBody, 'The request body could not be read.', 'The request body must be an object of parameters.');
  }
  const key = queryKey(input);
  let known = validated.get(struct);
  if (key !== undefined && known?.has(key)) return copyJson(known.get(key) as T);
  const [error, value] = validate(coerce(struct as AnyStruct, input ?? {}), struct, { coerce: true, mask: true });
  if (!error && key !== undefined) {
    if (!known) validated.set(struct, (known = new Map()));
    if (known.size >= MAX_VALIDATED) known.delete(known.keys().next().value as string);
    known.set(key, copyJson(value));
  }
  if (!error) return value as T;
  const seen = new Set<string>();
  const invalid: InvalidParameter[] = [];
  for (const failure of error.failures()) {
    const field = failure.path.join('.') || '(body)';
    if (seen.has(field)) continue;
    seen.add(field);
    const message = failure.value === undefined && failure.refinement === undefined ? 'is required' : describe(failure.message);
    invalid.push({ field, error_code: codes.invalidInput, error: `Invalid value for ${field}.`, developer_message: `${field} ${message}` });
  }
  throw new ApiError(
    400,
    codes.invalidInput,
    'Something about your request was invalid.',
    invalid.map((p) => p.developer_message).join('; '),
    invalid,
  );
}

/** Superstruct says "Expected …, but received: …"; keep it but make it read as a sentence about the field. */
const describe = (message: string): string =>
  message
    .replace(/^Expected /, 'must be ')
    .replace(/\ba (integer|object|array)\b/, 'an $1')
    .replace(/,? but received:? /, '; received ');

/** A query-like input (none, or a few short text parameters: a query string, a small form) as a key; undefined for anything else, which is validated every time. */
function queryKey(input: unknown): string | undefined {
  if (input === undefined) return '';
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  let length = 0;
  for (const name in input as Record<string, unknown>) {
    const value = (input as Record<string, unknown>)[name];
    if (typeof value !== 'string' || (length += name.length + value.length) > 512) return undefined;
  }
  return JSON.stringify(input);
}
