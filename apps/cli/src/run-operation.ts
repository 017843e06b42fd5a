import type { CallParams, Client, TransportResponse } from '@reelbase/http';
import { callOrUsage } from './client';
import { ReportedFailure, UsageError } from './errors';
import { json, line, type CliIo } from './io';
import { describeApiError } from './render/api-error';
import { columnsFor, renderRecord, renderTable } from './render/table';

/** How an answer is printed: the output flags (see `addOutputOptions`) and a command's defaults. */
export interface OutputOptions {
  json?: boolean;
  jsonl?: boolean;
  fields?: string;
  all?: boolean;
  /** Table columns when --fields names none (default: the usual identifying ones). */
  columns?: readonly string[];
  /** The note on stderr for an answer with no body (default `done (HTTP 204)`). */
  done?: string;
}

/** The list envelope: `{ total, page, per_page, paging, data }`. */
export interface ListBody {
  total: number;
  page: number;
  per_page: number;
  paging: { next: string | null };
  data: unknown[];
}

export const isList = (body: unknown): body is ListBody =>
  !!body && typeof body === 'object' && Array.isArray((body as ListBody).data) && typeof (body as ListBody).paging === 'object';

const maxPages = 10_000;

/**
 * Calls operation `id` and prints its answer (one page, or every page with --all): a table or
 * `key  value` lines for people, JSON or JSON lines for scripts. An API error goes to stderr with
 * its error_code and throws ReportedFailure (exit 1); a usage mistake throws UsageError (exit 2).
 */
export async function runOperation(io: CliIo, client: Client, id: string, params: CallParams, opts: OutputOptions): Promise<void> {
  const sent = opts.fields === undefined ? params : { ...params, fields: opts.fields };
  if (opts.all) return print(io, opts, { all: await walkPages(io, client, id, sent, opts) });
  const answer = await callOrUsage(client, id, sent);
  if (!succeeded(io, opts, answer)) throw new ReportedFailure(1);
  print(io, opts, { answer });
}

async function walkPages(io: CliIo, client: Client, id: string, params: CallParams, opts: OutputOptions): Promise<unknown[]> {
  const items: unknown[] = [];
  let page = Number(params.page ?? 1);
  for (let n = 0; n < maxPages; n++, page++) {
    const answer = await callOrUsage(client, id, { per_page: '100', ...params, page: String(page) });
    if (!succeeded(io, opts, answer)) throw new ReportedFailure(1);
    if (!isList(answer.body)) throw new UsageError(`--all needs a list operation; ${id} does not answer a list`);
    items.push(...answer.body.data);
    if (!answer.body.paging.next || answer.body.data.length === 0) break;
  }
  return items;
}

/** Reports a non-2xx answer on stderr (with its error_code) and answers false. */
export function succeeded(io: CliIo, opts: Pick<OutputOptions, 'json' | 'jsonl'>, answer: TransportResponse): boolean {
  if (answer.status >= 200 && answer.status < 300) return true;
  if (opts.json || opts.jsonl) io.stderr(json(answer.body ?? { status: answer.status }));
  else line(io.stderr, describeApiError(answer));
  return false;
}

function print(io: CliIo, opts: OutputOptions, result: { answer: TransportResponse } | { all: unknown[] }): void {
  const body = 'all' in result ? undefined : result.answer.body;
  const items = 'all' in result ? result.all : isList(body) ? body.data : undefined;
  if (opts.json) return io.stdout(json('all' in result ? result.all : body ?? null));
  if (opts.jsonl) {
    if (items) for (const item of items) line(io.stdout, JSON.stringify(item));
    else if (body !== undefined) line(io.stdout, JSON.stringify(body));
    return;
  }
  if (items) {
    const columns = opts.fields === undefined && opts.columns ? opts.columns : columnsFor(items, opts.fields);
    if (items.length) io.stdout(renderTable(items, columns));
    const footer = isList(body) ? `page ${body.page} of ${Math.max(1, Math.ceil(body.total / body.per_page))}, ${body.total} in all` : `${items.length} in all`;
    return line(io.stderr, footer);
  }
  if (body === undefined) return line(io.stderr, opts.done ?? `done (HTTP ${'answer' in result ? result.answer.status : 200})`);
  io.stdout(typeof body === 'string' ? `${body.replace(/\n?$/, '\n')}` : renderRecord(body));
}
