import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRouter, operations } from '@reelbase/core';
import type { Client } from '@reelbase/http';
import { openClient, type TargetOptions } from '../client';
import { cwdOf } from '../context';
import { UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { renderTable } from '../render/table';
import { parseBatch, type BatchLine } from '../batch/batch-file';
import { openResults, readDone, type ResultRecord } from '../batch/results-file';
import type { TaskOutcome } from '../batch/runner';
import { describeFailure, exitForRun, failureOf, runWithProgress, type BatchSummary } from '../batch/run-with-progress';
import { addBatchOptions, readBatchOptions, type BatchFlags } from './batch-options';
import { addTargetOptions, jsonOption } from './options';

interface BatchOptions extends TargetOptions, BatchFlags {
  results?: string;
  resume?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** Failed lines listed on stderr after a run; the results file has them all. */
const failuresShown = 10;

/** `reelbase batch FILE.jsonl`: many requests, concurrently, resumable, with a results file. */
export function registerBatch(program: Command, io: CliIo): void {
  const command = program
    .command('batch')
    .description('run the requests of a JSON lines file concurrently, with retries on 429, a results file and --resume')
    .argument('<file>', 'one request per line: {"method":"POST","path":"/me/videos","body":{…},"id":"optional name"}')
    .option('--results <file>', 'results, one JSON line per request as it finishes (default: FILE.results.jsonl)')
    .option('--resume', 'skip the lines the results file records as done (2xx) and run the rest')
    .option('--dry-run', 'check the file and print what would be sent; send nothing');
  addBatchOptions(command, 8);
  addTargetOptions(command)
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        'Each line is sent as is (body as JSON). Results go to the results file as each request finishes:',
        '{"line":3,"id":…,"method":"POST","path":"/me/videos","status":201,"ok":true,"attempts":1,"body":{…}}',
        'or with "error" (the API\'s Error body, or a network error) instead of "body". A run stopped by',
        'Ctrl-C or SIGTERM finishes the requests in flight first, so --resume completes it exactly once.',
        '',
        'Progress: a progress bar on a terminal, plain lines on stderr otherwise. --json prints a summary',
        'object on stdout ({ total, done, failed, skipped, left, requests, results }).',
        '',
        'Exit codes: 0 every line succeeded, 1 some failed, 2 usage error (bad file or flags; nothing sent),',
        '130/143 interrupted by SIGINT/SIGTERM.',
        '',
        'Examples:',
        '  reelbase batch videos.jsonl --base-url http://127.0.0.1:8080 --token $TOKEN',
        '  reelbase batch videos.jsonl --resume --concurrency 4',
        '  reelbase batch videos.jsonl --dry-run',
      ].join('\n'),
    )
    .action(async (file: string, opts: BatchOptions) => {
      readBatchOptions(opts); // flag mistakes first, before reading anything
      const path = resolve(cwdOf(io), file);
      const lines = readBatchLines(io, file, path);
      const resultsPath = opts.results === undefined ? defaultResultsPath(path) : resolve(cwdOf(io), opts.results);
      if (opts.dryRun) return dryRun(io, lines, opts.resume ? readDone(resultsPath, lines) : [], opts.json === true);

      const client = await openClient(io, opts);
      const { summary, skipped, failures } = await runLines(io, client, lines, resultsPath, opts).finally(() => client.close());
      const report = { total: lines.length, done: summary.done, failed: summary.failed, skipped, left: summary.left, requests: summary.requests, results: resultsPath };
      if (opts.json) io.stdout(json(report));
      for (const failure of failures.slice(0, failuresShown)) line(io.stderr, failure);
      if (failures.length > failuresShown) line(io.stderr, `…and ${failures.length - failuresShown} more failed lines (see the results file)`);
      line(io.stderr, `batch: ${report.done} done, ${report.failed} failed, ${report.skipped} skipped (done before) of ${report.total} lines; results in ${resultsPath}`);
      if (summary.left) line(io.stderr, `batch: stopped with ${summary.left} lines not run; run it again with --resume to finish`);
      exitForRun(summary);
    });
}

/** Runs the lines the results file does not record as done, appending each result as it finishes. */
async function runLines(io: CliIo, client: Client, lines: readonly BatchLine[], resultsPath: string, opts: BatchOptions): Promise<{ summary: BatchSummary; skipped: number; failures: string[] }> {
  const results = openResults(resultsPath, lines, opts.resume === true);
  const failures: string[] = [];
  try {
    const summary = await runWithProgress(io, {
      label: 'batch',
      tasks: lines.filter((l) => !results.done.has(l.line)),
      skipped: results.done.size,
      ...readBatchOptions(opts),
      forMachines: opts.json === true,
      send: (l) => client.request(l.method, l.path, l.body === undefined ? {} : { json: l.body }),
      onFinish(l, outcome) {
        results.append(resultRecord(l, outcome));
        if (!outcome.ok) failures.push(`line ${l.line}${l.id === undefined ? '' : ` (${l.id})`}: ${l.method} ${l.path}: ${describeFailure(outcome)}`);
      },
    });
    return { summary, skipped: results.done.size, failures };
  } finally {
    results.close();
  }
}

/** `jobs.jsonl` → `jobs.results.jsonl`. */
const defaultResultsPath = (path: string): string => `${path.replace(/\.jsonl?$/, '')}.results.jsonl`;

function readBatchLines(io: CliIo, file: string, path: string): BatchLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const { lines, problems } = parseBatch(text);
  for (const p of problems.slice(0, 20)) line(io.stderr, `${file}:${p.line}: ${p.message}`);
  if (problems.length > 20) line(io.stderr, `${file}: …and ${problems.length - 20} more invalid lines`);
  if (problems.length) throw new UsageError(`${file} has ${problems.length} invalid line${problems.length === 1 ? '' : 's'}; nothing was sent`);
  if (!lines.length) throw new UsageError(`${file} has no requests`);
  return lines;
}

function resultRecord(l: BatchLine, outcome: TaskOutcome): ResultRecord {
  const record: ResultRecord = { line: l.line, ...(l.id === undefined ? {} : { id: l.id }), method: l.method, path: l.path, status: outcome.status, ok: outcome.ok, attempts: outcome.attempts };
  if (!outcome.ok) record.error = failureOf(outcome).error;
  else if (outcome.response.body !== undefined) record.body = outcome.response.body;
  return record;
}

/** What a run would send: each line with the operation it reaches (by this version's table). */
function dryRun(io: CliIo, lines: readonly BatchLine[], done: readonly ResultRecord[], asJson: boolean): void {
  const route = createRouter(operations);
  const skip = new Set(done.map((r) => r.line));
  const pending = lines.filter((l) => !skip.has(l.line));
  const rows = pending.map((l) => {
    const found = route(l.method, l.path.split('?')[0]);
    return { line: l.line, id: l.id ?? null, method: l.method, path: l.path, operation: found.kind === 'found' ? found.op.id : null, body: l.body ?? null };
  });
  if (asJson) io.stdout(json(rows));
  else if (rows.length) io.stdout(renderTable(rows.map((r) => ({ ...r, operation: r.operation ?? '-' })), ['line', 'method', 'path', 'operation', 'body']));
  for (const r of rows.filter((r) => r.operation === null)) line(io.stderr, `warning: line ${r.line}: ${r.method} ${r.path} matches no operation of this API`);
  line(io.stderr, `dry run: ${rows.length} requests would be sent${skip.size ? `, ${skip.size} lines already done would be skipped` : ''}; nothing was sent`);
}
