import type { CollectionSchema, Doc, Schema } from '@reelbase/core';

/**
 * The dump format (JSON lines): one header line, then one line per document,
 *
 *   {"format":"reelbase-dump","version":1,"collections":{"users":{"id":"auto","count":3,"sequence":4},…}}
 *   {"collection":"users","doc":{"id":"1","name":"admin",…}}
 *
 * The header lists every collection with its id kind, its document count and, for `auto`
 * collections, the last id handed out, so an import restores the sequences and can tell a
 * complete dump from a truncated one. Documents follow collection by collection, in id order.
 */
export const dumpFormat = 'reelbase-dump';
export const dumpVersion = 1;

export interface DumpCollection {
  id: CollectionSchema['id'];
  count: number;
  /** `auto` collections: the last id handed out (never below the largest id in the dump). */
  sequence?: number;
}

export interface DumpHeader {
  format: typeof dumpFormat;
  version: typeof dumpVersion;
  collections: Record<string, DumpCollection>;
}

/** Where a dump goes: the header once, then pages of one collection's documents. */
export interface DumpSink {
  header(header: DumpHeader): Promise<void>;
  documents(collection: string, docs: readonly Doc[]): Promise<void>;
}

/** A dump that cannot be read or does not fit this reelbase: a runtime error (exit 1), with where. */
export class DumpError extends Error {
  override readonly name = 'DumpError';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function parseLine(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DumpError(`dump line ${line} is not valid JSON (is the dump truncated?)`);
  }
  if (!isObject(value)) throw new DumpError(`dump line ${line} is not a JSON object`);
  return value;
}

/** Reads and checks the header line. */
export function parseHeader(text: string, line: number): DumpHeader {
  const value = parseLine(text, line);
  if (value.format !== dumpFormat) throw new DumpError(`dump line ${line}: not a reelbase dump (expected a header with "format": "${dumpFormat}")`);
  if (value.version !== dumpVersion) {
    throw new DumpError(`dump line ${line}: dump format version ${JSON.stringify(value.version)} is not supported (this reelbase reads version ${dumpVersion})`);
  }
  if (!isObject(value.collections)) throw new DumpError(`dump line ${line}: the header has no "collections" object`);
  const collections: Record<string, DumpCollection> = {};
  for (const [name, entry] of Object.entries(value.collections)) {
    const ok =
      isObject(entry) &&
      (entry.id === 'auto' || entry.id === 'text') &&
      isCount(entry.count) &&
      (entry.id === 'auto' ? isCount(entry.sequence) : entry.sequence === undefined);
    if (!ok) throw new DumpError(`dump line ${line}: collection "${name}" in the header needs id "auto" (with a count and a sequence) or "text" (with a count)`);
    collections[name] = entry as unknown as DumpCollection;
  }
  return { format: dumpFormat, version: dumpVersion, collections };
}

/** Reads and checks one document line against the header. */
export function parseDocument(text: string, line: number, header: DumpHeader): { collection: string; doc: Doc } {
  const value = parseLine(text, line);
  const { collection, doc } = value;
  if (typeof collection !== 'string' || !Object.hasOwn(header.collections, collection)) {
    throw new DumpError(`dump line ${line}: "collection" must name a collection of the header, got ${JSON.stringify(collection)}`);
  }
  if (!isObject(doc) || typeof doc.id !== 'string' || doc.id === '') throw new DumpError(`dump line ${line}: "doc" must be an object with a string "id"`);
  return { collection, doc: doc as Doc };
}

/** Refuses a dump this reelbase cannot store: unknown collections, or ids of another kind. */
export function checkFits(header: DumpHeader, schema: Schema): void {
  for (const [name, entry] of Object.entries(header.collections)) {
    const here = schema[name];
    if (!here) throw new DumpError(`the dump has a collection "${name}" this reelbase does not know (a dump from a newer version?)`);
    if (here.id !== entry.id) throw new DumpError(`collection "${name}" has ${entry.id} ids in the dump but ${here.id} ids here`);
  }
}
