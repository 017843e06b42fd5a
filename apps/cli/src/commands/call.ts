import type { Command } from 'commander';
import { Option } from 'commander';
import type { CallParams, TransportResponse } from '@reelbase/http';
import { callOrUsage, openClient, type TargetOptions } from '../client';
import { ReportedFailure, UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { columnsFor, renderRecord, renderTable } from '../render/table';
import { collect, storeOption } from './options';

interface CallOptions extends TargetOptions {
  data: string[];
  json?: boolean;
  jsonl?: boolean;
  fields?: string;
  all?: boolean;
}

interface ListBody {
  total: number;
  page: number;
  per_page: number;
  paging: { next: string | null };
  data: unknown[];
}

const isList = (body: unknown): body is ListBody =>
  !!body && typeof body === 'object' && Array.isArray((body as ListBody).data) && typeof (body as ListBody).paging === 'object';

const maxPages = 10_000;

/** `reelbase call <operation-id>`: any operation of the table by id, with its parameters as flags. */
export function registerCall(program: Command, io: CliIo): void {
  program
    .command('call')
    .description('call an operation of the table by id (see `reelbase operations`); path variables and parameters as flags')
    .argument('<operation-id>', 'e.g. videos.get, users.videos.list, videos.update')
    .argument('[params...]', 'parameters as --name value (dot notation nests: --privacy.view nobody)')
    .option('-d, --data <key=value>', 'a parameter (repeatable), as an alternative to --name value', collect, [])
    .addOption(new Option('--json', 'print the response body as JSON').conflicts('jsonl'))
    .option('--jsonl', 'print one JSON line per list item (or the body on one line)')
    .option('--fields <fields>', 'fields to keep (comma-separated, sent as `fields`) and, for lists, the table columns')
    .option('--all', 'walk every page of a list (per_page 100 unless given)')
    .option('--token <token>', 'access token (env REELBASE_TOKEN); none = anonymous')
    .addOption(new Option('--base-url <url>', 'call a running server over HTTP (env REELBASE_URL)').conflicts('store'))
    .addOption(storeOption())
    .option('--api-version <version>', 'API version to ask for, e.g. 3.2 (default: latest)')
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 for a 2xx answer, 1 for an API error (its error_code on stderr) or a network',
        'error, 2 for a usage error (unknown operation, missing path variable, bad flag).',
        '',
        'Examples:',
        '  reelbase call videos.get --video_id 7',
        '  reelbase call users.videos.list --all --fields uri,name --token $TOKEN',
        '  reelbase call videos.update --video_id 7 --name Hello --privacy.view nobody --token $TOKEN',
        '  reelbase call users.videos.list --jsonl --all --base-url http://127.0.0.1:8080 --token $TOKEN',
      ].join('\n'),
    )
    .action(async (id: string, rest: string[], opts: CallOptions) => {
      const params = parseParams(rest, opts.data);
      if (opts.fields !== undefined) params.fields = opts.fields;
      const client = await openClient(io, opts);
      try {
        if (!client.operations.some((op) => op.id === id)) throw new UsageError(`unknown operation "${id}" (list them with \`reelbase operations\`)`);
        if (opts.all) {
          const items = await walkPages(id, params, (p) => callOrUsage(client, id, p), io, opts);
          return print(io, opts, { all: items });
        }
        const answer = await callOrUsage(client, id, params);
        if (!succeeded(io, opts, answer)) throw new ReportedFailure(1);
        print(io, opts, { answer });
      } finally {
        await client.close();
      }
    });
}

/** `--name value`, `--name=value`, a bare `--flag` (true) and `-d name=value`; `-` in names reads as `_`. */
export function parseParams(rest: readonly string[], data: readonly string[]): CallParams {
  const pairs: [string, string][] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--') || arg === '--') throw new UsageError(`unexpected argument "${arg}"; give parameters as --name value or -d name=value`);
    const eq = arg.indexOf('=');
    if (eq > 0) pairs.push([arg.slice(2, eq), arg.slice(eq + 1)]);
    else if (i + 1 < rest.length && !rest[i + 1].startsWith('--')) pairs.push([arg.slice(2), rest[++i]]);
    else pairs.push([arg.slice(2), 'true']);
  }
  for (const pair of data) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`-d expects key=value (got "${pair}")`);
    pairs.push([pair.slice(0, eq), pair.slice(eq + 1)]);
  }
  const params: CallParams = {};
  for (const [rawName, value] of pairs) {
    const parts = rawName.replace(/-/g, '_').split('.');
    if (parts.some((p) => !/^\w+$/.test(p))) throw new UsageError(`invalid parameter name "${rawName}"`);
    let node = params as Record<string, unknown>;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (next !== undefined && (typeof next !== 'object' || next === null)) throw new UsageError(`parameter "${rawName}" is given both as a value and as an object`);
      node = (node[part] ??= {}) as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = value;
  }
  return params;
}

async function walkPages(id: string, params: CallParams, call: (p: CallParams) => Promise<TransportResponse>, io: CliIo, opts: CallOptions): Promise<unknown[]> {
  const items: unknown[] = [];
  let page = Number(params.page ?? 1);
  for (let n = 0; n < maxPages; n++, page++) {
    const answer = await call({ per_page: '100', ...params, page: String(page) });
    if (!succeeded(io, opts, answer)) throw new ReportedFailure(1);
    if (!isList(answer.body)) throw new UsageError(`--all needs a list operation; ${id} does not answer a list`);
    items.push(...answer.body.data);
    if (!answer.body.paging.next || answer.body.data.length === 0) break;
  }
  return items;
}

/** Reports a non-2xx answer on stderr (with its error_code) and answers false. */
function succeeded(io: CliIo, opts: CallOptions, answer: TransportResponse): boolean {
  if (answer.status >= 200 && answer.status < 300) return true;
  const body = answer.body as { error?: string; error_code?: number; developer_message?: string } | undefined;
  if (opts.json || opts.jsonl) io.stderr(json(body ?? { status: answer.status }));
  else if (body && typeof body === 'object' && body.error_code !== undefined) {
    line(io.stderr, `error ${body.error_code} (HTTP ${answer.status}): ${body.error}${body.developer_message ? ` — ${body.developer_message}` : ''}`);
  } else line(io.stderr, `error: HTTP ${answer.status}${typeof body === 'string' ? ` ${body}` : ''}`);
  return false;
}

function print(io: CliIo, opts: CallOptions, result: { answer: TransportResponse } | { all: unknown[] }): void {
  const body = 'all' in result ? undefined : result.answer.body;
  const items = 'all' in result ? result.all : isList(body) ? body.data : undefined;
  if (opts.json) return io.stdout(json('all' in result ? result.all : body ?? null));
  if (opts.jsonl) {
    if (items) for (const item of items) line(io.stdout, JSON.stringify(item));
    else if (body !== undefined) line(io.stdout, JSON.stringify(body));
    return;
  }
  if (items) {
    if (items.length) io.stdout(renderTable(items, columnsFor(items, opts.fields)));
    const footer = isList(body) ? `page ${body.page} of ${Math.max(1, Math.ceil(body.total / body.per_page))}, ${body.total} in all` : `${items.length} in all`;
    return line(io.stderr, footer);
  }
  if (body === undefined) return line(io.stderr, `done (HTTP ${'answer' in result ? result.answer.status : 200})`);
  io.stdout(typeof body === 'string' ? `${body.replace(/\n?$/, '\n')}` : renderRecord(body));
}
