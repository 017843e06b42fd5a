import { isShared, type Filter } from '@reelbase/core';

/**
 * The read cache's keys: what a read asked, as text. A visibility condition built once per viewer
 * (core shares it, deep-frozen) comes back inside every list that viewer reads; its text is made
 * once, so a key costs the few fields around it (JSON.stringify of the whole condition cost a
 * list read with a token about 3 µs).
 */
export function readKey(table: string, kind: 'find' | 'one' | 'count', where: Filter | undefined, rest: unknown): string {
  return `${table}\u0000${kind}\u0000${JSON.stringify(rest) ?? ''}\u0000${where === undefined ? '' : filterText(where)}`;
}

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
  if (f.op === 'inSelect') {
    const { collection, field, where } = f.select;
    const select = `{"collection":${JSON.stringify(collection)},"field":${JSON.stringify(field)}${where === undefined ? '' : `,"where":${filterText(where)}`}}`;
    return `{"field":${JSON.stringify(f.field)},"op":"inSelect","select":${select}}`;
  }
  return JSON.stringify(f);
}
