import type { Operation } from '../engine/operation';
import { privateReadsOf } from '../engine/read-as';
import type { AnyStruct } from '../engine/params';
import { describeType, objectFields } from './struct-walk';

/** One documented parameter: its dot path and a short type description from the struct. */
export interface ParamDoc {
  name: string;
  type: string;
}

/** The parameters of an operation, read from its superstruct struct (fields, enums, nesting). */
export function describeParams(struct: AnyStruct | undefined): ParamDoc[] {
  const out: ParamDoc[] = [];
  const walk = (s: AnyStruct, prefix: string) => {
    const fields = objectFields(s);
    if (fields) {
      for (const [k, v] of fields) walk(v, prefix ? `${prefix}.${k}` : k);
      return;
    }
    out.push({ name: prefix, type: describeType(s) });
  };
  if (struct) walk(struct, '');
  return out;
}

/** The operation reference in Markdown, generated from the table (docs/reference.md). */
export function renderReference(operations: readonly Operation<unknown>[]): string {
  const lines = [
    '# reelbase API reference',
    '',
    'Generated from the operation table (`npm run docs`); do not edit by hand.',
    '',
  ];
  for (const op of [...operations].sort((a, b) => a.id.localeCompare(b.id))) {
    lines.push(`## \`${op.id}\``, '', op.summary, '');
    for (const path of op.paths) lines.push(`- \`${op.method} ${path}\``);
    const reads = privateReadsOf(op);
    const owners = reads.length ? `; reading the caller's own non-public resources as their owner needs ${reads.map((r) => `\`${r}\``).join(' and ')}` : '';
    lines.push('', `Scope: ${op.scope ? `\`${op.scope}\`` : 'none (anonymous callers allowed)'}${op.auth === 'user' ? '; an authenticated user is required' : ''}${owners}.`, '');
    const params = describeParams(op.params as AnyStruct | undefined);
    if (params.length) {
      lines.push(`| ${op.method === 'GET' ? 'Query parameter' : 'Body parameter'} | Type |`, '|---|---|');
      for (const p of params) lines.push(`| \`${p.name}\` | ${p.type} |`);
      lines.push('');
    }
  }
  return lines.join('\n');
}
