import { isShared as sharedByCore, spliceOf, type Splice } from '@reelbase/core';

/**
 * A body's JSON as a response sends it: pieces to write in order (UTF-8 bytes of shared parts, and
 * the texts between them) and the length of them all in bytes. A page of Clips is sent as its
 * pieces in one gathered write: copying them into one buffer first cost a list read as much as
 * building it, and a buffer of that size on every read kept the garbage collector busy.
 */
export interface JsonPayload {
  chunks: (Buffer | string)[];
  bytes: number;
}

/** The UTF-8 JSON of shared objects, by object. */
const sharedJson = new WeakMap<object, Buffer>();
/** A spliced base's JSON cut where its replaced field's value goes. */
const templates = new WeakMap<object, { key: string; before: Buffer; after: Buffer }>();

/** How many levels of unshared objects and arrays are walked to reach shared parts: a list's envelope, its `data`, an item. */
const SPLICE_DEPTH = 3;

/**
 * Serialises a body to what JSON.stringify would answer, as UTF-8. Shared parts (core deep-freezes
 * what it shares: a Clip's base remembered per stored document, a viewer's Clip made of one, a
 * placeholder picture) are serialised and encoded once, since they can never change; a spliced
 * one (a base with a viewer's `metadata`, core's representations/spliced.ts) is made the first
 * time from its base's bytes with the new field written in; a body built around them (a page of
 * Clips) is their bytes copied between its own few fields. A change to what a part shows makes a
 * new object, so nothing stale is ever sent.
 */
export function jsonPayload(body: unknown): JsonPayload {
  if (isShared(body)) {
    const data = sharedBytes(body);
    return { chunks: [data], bytes: data.length };
  }
  const pieces: (string | Buffer)[] = [];
  if (!writeJson(body, SPLICE_DEPTH, pieces)) pieces.push('null');
  // Texts between shared parts joined: one string per gap, not one per comma.
  const chunks: (Buffer | string)[] = [];
  let text = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      text += piece;
    } else {
      if (text) chunks.push(text);
      chunks.push(piece);
      text = '';
    }
  }
  if (text) chunks.push(text);
  return { chunks, bytes: chunks.reduce((sum, c) => sum + (typeof c === 'string' ? Buffer.byteLength(c) : c.length), 0) };
}

/**
 * Appends JSON.stringify(value) to `out` (strings, and the bytes of shared objects found within
 * `depth` levels); answers false where JSON.stringify answers undefined (a field it leaves out).
 */
function writeJson(value: unknown, depth: number, out: (string | Buffer)[]): boolean {
  if (isShared(value)) {
    if (Array.isArray(value)) out.push(...sharedItems(value));
    else out.push(sharedBytes(value));
    return true;
  }
  // Objects that serialise themselves (Dates, Buffers), and what lies deeper, are JSON.stringify's.
  if (value === null || typeof value !== 'object' || depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    out.push(text);
    return true;
  }
  if (Array.isArray(value)) {
    writeItems(value, depth, out);
    return true;
  }
  let first = true;
  out.push('{');
  for (const key of Object.keys(value)) {
    const mark = out.length;
    out.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    if (writeJson((value as Record<string, unknown>)[key], depth - 1, out)) first = false;
    else out.length = mark;
  }
  out.push('}');
  return true;
}

function writeItems(items: readonly unknown[], depth: number, out: (string | Buffer)[]): void {
  out.push('[');
  items.forEach((item, i) => {
    if (i > 0) out.push(',');
    if (!writeJson(item, depth - 1, out)) out.push('null');
  });
  out.push(']');
}

/**
 * A shared array's pieces: its items' bytes between its own brackets and commas, found once. A
 * remembered page of Clips is sent as the Clips' bytes, which other pages and readers share, not
 * as a copy of its own.
 */
function sharedItems(items: readonly unknown[]): readonly (string | Buffer)[] {
  let pieces = sharedArrays.get(items);
  if (!pieces) {
    const written: (string | Buffer)[] = [];
    writeItems(items, 1, written);
    sharedArrays.set(items, (pieces = written));
  }
  return pieces;
}

const sharedArrays = new WeakMap<readonly unknown[], readonly (string | Buffer)[]>();

function sharedBytes(value: object): Buffer {
  let bytes = sharedJson.get(value);
  if (!bytes) sharedJson.set(value, (bytes = encodeShared(value)));
  return bytes;
}

/** A shared object's JSON: a spliced one's from its base's, with its new field written in. */
function encodeShared(value: object): Buffer {
  const splice = spliceOf(value);
  const replaced = splice && (value as Record<string, unknown>)[splice.key];
  // A field JSON leaves out (undefined) has no place in the template.
  if (replaced === undefined) return Buffer.from(JSON.stringify(value));
  const { before, after } = templateOf(splice!);
  const middle: (string | Buffer)[] = [];
  writeJson(replaced, 1, middle);
  return Buffer.concat([before, ...middle.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)), after]);
}

/** The base's JSON around its `key` field's value, cut at a mark nothing else can contain. */
function templateOf({ base, key }: Splice): { before: Buffer; after: Buffer } {
  let template = templates.get(base);
  if (template?.key !== key) {
    const mark = `\u0000splice:${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
    const [before, after, extra] = JSON.stringify({ ...base, [key]: mark }).split(JSON.stringify(mark));
    if (extra !== undefined) throw new Error('a splice mark occurred twice');
    templates.set(base, (template = { key, before: Buffer.from(before), after: Buffer.from(after) }));
  }
  return template;
}

/** Core deep-freezes what it shares (a spliced object too): such an object never changes. */
const isShared = (value: unknown): value is object => sharedByCore(value);
