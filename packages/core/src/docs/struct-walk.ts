import type { AnyStruct } from '../engine/params';

/**
 * What superstruct structs reveal about themselves, in one place for the Markdown reference and
 * the OpenAPI document. Structs expose `type` and `schema` (object fields, enum values, array
 * items); optionality, nullability and refinements (min/max, size, pattern) are not exposed, so
 * they are read by probing the struct with values it must reject and parsing its messages.
 */

/** The fields of an `object`/`type` struct, or undefined for any other struct. */
export function objectFields(s: AnyStruct): [string, AnyStruct][] | undefined {
  if ((s.type === 'object' || s.type === 'type') && s.schema && typeof s.schema === 'object') {
    return Object.entries(s.schema as Record<string, AnyStruct>);
  }
  return undefined;
}

/** The allowed values of an `enums` struct. */
export const enumValues = (s: AnyStruct): unknown[] => Object.values(s.schema as Record<string, unknown>);

/** The item struct of an `array` struct, when it declares one. */
export const arrayItem = (s: AnyStruct): AnyStruct | undefined => (s.type === 'array' ? (s.schema as AnyStruct | undefined) : undefined);

const accepts = (s: AnyStruct, value: unknown): boolean => s.validate(value)[0] === undefined;

/** True when `undefined` passes, i.e. the field was declared `optional(…)`. */
export const isOptional = (s: AnyStruct): boolean => accepts(s, undefined);

/** True when `null` passes (`nullable(…)`). */
export const isNullable = (s: AnyStruct): boolean => accepts(s, null);

/** Refinement bounds read from the struct's own failure messages. */
export interface Bounds {
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

const messages = (s: AnyStruct, value: unknown): string[] => {
  const [error] = s.validate(value);
  return error ? error.failures().map((f) => f.message) : [];
};

export function bounds(s: AnyStruct): Bounds {
  const out: Bounds = {};
  if (s.type === 'integer' || s.type === 'number') {
    for (const m of messages(s, -1e15)) {
      const hit = /greater than (or equal to )?(-?[\d.e+]+)/.exec(m) ?? /between `(-?[\d.e+]+)`/.exec(m);
      if (hit) out.minimum = Number(hit[2] ?? hit[1]);
    }
    for (const m of messages(s, 1e15)) {
      const hit = /less than (or equal to )?(-?[\d.e+]+)/.exec(m) ?? /and `(-?[\d.e+]+)`/.exec(m);
      if (hit) out.maximum = Number(hit[2] ?? hit[1]);
    }
  } else if (s.type === 'string') {
    for (const m of messages(s, '')) {
      const size = /length (?:between `(\d+)` and `(\d+)`|of `(\d+)`)/.exec(m);
      if (size) {
        out.minLength = Number(size[1] ?? size[3]);
        out.maxLength = Number(size[2] ?? size[3]);
      }
      const pattern = /matching `\/(.*)\/` but received/.exec(m);
      if (pattern) out.pattern = pattern[1];
    }
  }
  return out;
}

/** A short type description for the Markdown reference: `integer`, `enum a, b`, `array of string`. */
export function describeType(s: AnyStruct): string {
  if (s.type === 'enums') return `enum ${Object.keys(s.schema as object).join(', ')}`;
  if (s.type === 'array') {
    const item = arrayItem(s);
    return item ? `array of ${describeType(item)}` : 'array';
  }
  return s.type;
}

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) for a struct. */
export type JsonSchema = Record<string, unknown>;

export function toJsonSchema(s: AnyStruct): JsonSchema {
  const schema = baseSchema(s);
  return isNullable(s) && s.type !== 'any' && s.type !== 'unknown' ? { anyOf: [schema, { type: 'null' }] } : schema;
}

function baseSchema(s: AnyStruct): JsonSchema {
  const fields = objectFields(s);
  if (fields) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [name, field] of fields) {
      properties[name] = toJsonSchema(field);
      if (!isOptional(field)) required.push(name);
    }
    return { type: 'object', properties, ...(required.length ? { required } : {}) };
  }
  switch (s.type) {
    case 'string':
    case 'integer':
    case 'number':
      return { type: s.type, ...bounds(s) };
    case 'boolean':
      return { type: 'boolean' };
    case 'enums':
      return { enum: enumValues(s) };
    case 'literal':
      return s.schema === null ? {} : { const: s.schema };
    case 'array': {
      const item = arrayItem(s);
      return { type: 'array', ...(item ? { items: toJsonSchema(item) } : {}) };
    }
    default:
      // union, any, unknown, custom structs: superstruct does not expose enough to say more.
      return {};
  }
}
