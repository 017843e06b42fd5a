import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { Fixture, Harness } from './harness';
import { buildWorld, type World } from './world';

/**
 * How much of the hosted API's published representations reelbase's answers carry (issue 22,
 * "Compatibility" item 2). The hosted API publishes an OpenAPI description whose schemas name the
 * `required` fields of each representation; a live answer is compared with them recursively.
 * The description is read from the path in REELBASE_HOSTED_SCHEMA and never committed.
 */

export const schemaVariable = 'REELBASE_HOSTED_SCHEMA';

/** The part of an OpenAPI schema object the comparison reads. */
export interface SchemaObject {
  $ref?: string;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  nullable?: boolean;
}

/** The published schemas by name (`video`, `user`, `text-track`…). */
export type PublishedSchemas = Record<string, SchemaObject>;

/** The schemas of the description at `path`. */
export function readPublishedSchemas(path: string): PublishedSchemas {
  const document = parse(readFileSync(path, 'utf8'), { logLevel: 'error' }) as { components?: { schemas?: PublishedSchemas } };
  const schemas = document.components?.schemas;
  if (!schemas) throw new Error(`${path}: no components.schemas; is it the hosted API's api.yaml?`);
  return schemas;
}

/** One schema with its `$ref` and compositions merged: the properties and required names of all its parts. */
interface Resolved {
  properties: Record<string, SchemaObject>;
  required: Set<string>;
  items?: SchemaObject;
  nullable: boolean;
  /** The named schemas it passed through, so a representation embedded in itself is not followed forever. */
  refs: Set<string>;
}

function resolve(schema: SchemaObject, schemas: PublishedSchemas, out: Resolved = { properties: {}, required: new Set(), nullable: false, refs: new Set() }): Resolved {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = schemas[name];
    if (!target) throw new Error(`unknown schema reference ${schema.$ref}`);
    out.refs.add(name);
    resolve(target, schemas, out);
  }
  for (const part of schema.allOf ?? []) resolve(part, schemas, out);
  // oneOf/anyOf: an answer matches one alternative; the fields every alternative requires are the ones to carry.
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length) {
    const each = alternatives.map((alt) => resolve(alt, schemas));
    for (const name of each[0].required) if (each.every((r) => r.required.has(name))) out.required.add(name);
    for (const r of each) {
      Object.assign(out.properties, r.properties);
      for (const name of r.refs) out.refs.add(name);
    }
  }
  Object.assign(out.properties, schema.properties);
  for (const name of schema.required ?? []) out.required.add(name);
  out.items ??= schema.items;
  out.nullable ||= schema.nullable === true;
  return out;
}

/** What an answer carries of a schema's required fields. */
export interface ShapeReport {
  /** Required field paths reached (nested ones as `metadata.connections.albums.uri`, array items' as `websites.link`). */
  required: number;
  carried: number;
  /** Paths required and absent, or null where null cannot stand for them (see allowsNull). */
  missing: string[];
}

/**
 * Whether null stands for a field: where the schema says nullable, and for a plain value (a time, a
 * link, a license) that has none, as the hosted API answers too; never for an object (a picture, a
 * connection), whose documented empty form is the object itself.
 */
const allowsNull = (s: Resolved): boolean => s.nullable || (s.required.size === 0 && Object.keys(s.properties).length === 0 && !s.items);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Compares one answer with a schema. Every required name of every object the answer carries is a
 * path; an absent object counts once (its own required fields are not guessed at). Arrays count
 * through their items: a path of an item is carried when every item carries it, and an empty array
 * says nothing about its items. A named schema embedded within itself is followed once.
 */
export function compareWithSchema(answer: unknown, schema: SchemaObject, schemas: PublishedSchemas): ShapeReport {
  const paths = new Map<string, boolean>();
  const visit = (value: unknown, at: SchemaObject, prefix: string, within: ReadonlySet<string>): void => {
    const s = resolve(at, schemas);
    if ([...s.refs].some((name) => within.has(name))) return;
    const inner = new Set([...within, ...s.refs]);
    if (Array.isArray(value)) {
      if (s.items) for (const item of value) visit(item, s.items, prefix, inner);
      return;
    }
    if (!isObject(value)) return;
    for (const name of s.required) {
      const path = prefix + name;
      const field = value[name];
      const property = s.properties[name] ?? {};
      const carried = field !== undefined && (field !== null || allowsNull(resolve(property, schemas)));
      paths.set(path, (paths.get(path) ?? true) && carried);
      if (field !== undefined && field !== null) visit(field, property, `${path}.`, inner);
    }
  };
  visit(answer, schema, '', new Set());
  const missing = [...paths].filter(([, carried]) => !carried).map(([path]) => path);
  return { required: paths.size, carried: paths.size - missing.length, missing };
}

/** A representation kind: the published schema it answers to and where the world holds one. */
export interface PublishedKind {
  kind: string;
  schema: string;
  path(world: World): string;
}

export const publishedKinds: readonly PublishedKind[] = [
  { kind: 'video', schema: 'video', path: (w) => `/videos/${w.vars.video_id}` },
  { kind: 'user', schema: 'user', path: (w) => `/users/${w.a.user.id}` },
  { kind: 'channel', schema: 'channel', path: (w) => `/channels/${w.vars.channel_id}` },
  { kind: 'group', schema: 'group', path: (w) => `/groups/${w.vars.group_id}` },
  { kind: 'album', schema: 'album', path: (w) => `/users/${w.a.user.id}/albums/${w.vars.album_id}` },
  { kind: 'text track', schema: 'text-track', path: (w) => `/videos/${w.vars.video_id}/texttracks/${w.vars.texttrack_id}` },
  { kind: 'category', schema: 'category', path: (w) => `/categories/${w.vars.category}` },
  { kind: 'On Demand page', schema: 'on-demand-page', path: (w) => `/ondemand/pages/${w.vars.ondemand_id}` },
];

/** buildWorld with its On Demand page published: another user sees every kind too. */
export async function shapesWorld(h: Harness): Promise<World> {
  const world = await buildWorld(h);
  const published = await h.call('PATCH', `/ondemand/pages/${world.vars.ondemand_id}`, { token: world.a.token, json: { publish: { active: true } } });
  if (published.status !== 200) throw new Error(`publishing the world's On Demand page: ${published.status} ${published.text.slice(0, 200)}`);
  return world;
}

export interface KindReport extends ShapeReport {
  kind: string;
  path: string;
}

export interface Measurement {
  kinds: KindReport[];
  required: number;
  carried: number;
  /** carried / required, 0..1. */
  share: number;
}

/** Fetches each kind from the world as `viewer` (at the latest version) and compares it with its published schema. */
export async function measureShapes(h: Harness, world: World, viewer: Fixture | null, schemas: PublishedSchemas): Promise<Measurement> {
  const kinds: KindReport[] = [];
  for (const k of publishedKinds) {
    const path = k.path(world);
    const answer = await h.call('GET', path, { token: viewer?.token });
    if (answer.status !== 200) throw new Error(`GET ${path} → ${answer.status} ${answer.text.slice(0, 200)}`);
    const schema = schemas[k.schema];
    if (!schema) throw new Error(`the published description has no schema ${k.schema}`);
    kinds.push({ kind: k.kind, path, ...compareWithSchema(answer.body, schema, schemas) });
  }
  const required = kinds.reduce((n, k) => n + k.required, 0);
  const carried = kinds.reduce((n, k) => n + k.carried, 0);
  return { kinds, required, carried, share: required ? carried / required : 1 };
}

/** The measurement as lines: per kind carried/required and the missing paths, then the total. */
export function formatMeasurement(title: string, m: Measurement): string[] {
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
  return [
    title,
    ...m.kinds.flatMap((k) => [
      `  ${k.kind.padEnd(15)} ${String(k.carried).padStart(4)}/${String(k.required).padEnd(4)} ${percent(k.required ? k.carried / k.required : 1).padStart(6)}  ${k.path}`,
      ...k.missing.map((path) => `      missing ${path}`),
    ]),
    `  ${'total'.padEnd(15)} ${String(m.carried).padStart(4)}/${String(m.required).padEnd(4)} ${percent(m.share).padStart(6)}`,
  ];
}
