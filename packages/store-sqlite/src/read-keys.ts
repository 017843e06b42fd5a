import { isShared, type Filter } from '@reelbase/core';
import { remember } from './read-cache';

/**
 * The read cache's keys: what a read asked, as text. A visibility condition built once per viewer
 * (core shares it, deep-frozen) comes back inside every list that viewer reads; its text is made
 * once, so a key costs the few fields around it (JSON.stringify of the whole condition cost a
 * list read with a token about 3 µs). The key of a read whose whole condition is shared is the
 * same string every time, too: a string made anew is hashed anew by every map it is looked up in,
 * which for a key of 700 characters costs more than the rest of a remembered read (1.2 µs).
 */
export function readKey(table: string, kind: 'find' | 'one' | 'count', where: Filter | undefined, rest: unknown): string {
  const head = `${table}\u0000${kind}\u0000${JSON.stringify(rest) ?? ''}\u0000`;
  if (where === undefined) return head;
  if (!isShared(where)) return head + filterText(where);
  let known = keys.get(where);
  if (!known) keys.set(where, (known = new Map()));
  let key = known.get(head);
  // Bounded: pages of one list (each offset its own head) cycle through.
  if (key === undefined) remember(known, head, (key = head + filterText(where)), MAX_KEYS_PER_CONDITION);
  return key;
}

/** Keys of reads with a shared condition, by condition and the text before it. */
const keys = new WeakMap<Filter, Map<string, string>>();
const MAX_KEYS_PER_CONDITION = 16;

/** Shared conditions' texts, made once each. */
const texts = new WeakMap<Filter, string>();

/** The condition's JSON: the same text whether or not parts of it are shared. */
function filterText(f: Filter): string {
  if (isShared(f)) {
    let text = texts.get(f);
    if (text === undefined) texts.set(f, (text = JSON.stringify(f)));
    return text;
  }
  if ('and' in f) return `{"and":[${f.and.map(filterText).join(',')}]}`;
  if ('or' in f) return `{"or":[${f.or.map(filterText).join(',')}]}`;
  if ('not' in f) return `{"not":${filterText(f.not)}}`;
  if ('match' in f) return JSON.stringify(f);
  if (f.op === 'inSelect') {
    const { collection, field, where } = f.select;
    const select = `{"collection":${JSON.stringify(collection)},"field":${JSON.stringify(field)}${where === undefined ? '' : `,"where":${filterText(where)}`}}`;
    return `{"field":${JSON.stringify(f.field)},"op":"inSelect","select":${select}}`;
  }
  return JSON.stringify(f);
}
