import { Option, type Command } from 'commander';
import { jobStates, type JobFilter } from '@reelbase/core';
import type { TransportResponse } from '@reelbase/http';
import { checkApiVersion, connect, type TargetOptions } from '../client';
import { openService } from '../context';
import { ReportedFailure, UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { apiJobConsole, storeJobConsole, type JobConsole } from '../jobs/job-console';
import { renderRecord, renderTable } from '../render/table';
import { succeeded } from '../run-operation';
import { resolveTarget } from '../target';
import { addTargetOptions } from './options';

/** A job as the console prints it (the admin operations' representation). */
interface JobView {
  id: string;
  kind: string;
  state: string;
  subject: string;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  due_time: string | null;
  created_time: string;
}

const jobColumns = ['id', 'kind', 'state', 'subject', 'attempts', 'last_error', 'created_time'] as const;

/**
 * The console `reelbase jobs` talks to: a running server's admin operations when the target is
 * one (--base-url, REELBASE_URL, a profile), the store itself otherwise, as its operator.
 */
export async function openJobConsole(io: CliIo, opts: TargetOptions): Promise<JobConsole> {
  checkApiVersion(opts.apiVersion);
  const target = await resolveTarget(io, opts);
  if (target.baseUrl !== undefined) return apiJobConsole(await connect(io, target, opts.apiVersion));
  return storeJobConsole((await openService(io, target.store)).service);
}

type Json = { json?: boolean };
type ListOptions = TargetOptions & Json & { state?: JobFilter['state']; kind?: string; video?: string; page: string; perPage: string };

const positive = (flag: string, value: string, most: number): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > most) throw new UsageError(`${flag}: expected a whole number from 1 to ${most}, got ${JSON.stringify(value)}`);
  return n;
};

/** Runs `work` on the console and prints its answer; an API error goes to stderr (exit 1). */
async function withConsole(io: CliIo, opts: TargetOptions & Json, work: (c: JobConsole) => Promise<TransportResponse>, print: (body: unknown) => void): Promise<void> {
  const jobConsole = await openJobConsole(io, opts);
  try {
    const answer = await work(jobConsole);
    if (!succeeded(io, opts, answer)) throw new ReportedFailure(1);
    if (opts.json) io.stdout(json(answer.body));
    else print(answer.body);
  } finally {
    await jobConsole.close();
  }
}

const shortError = (job: JobView): JobView => ({ ...job, last_error: job.last_error && job.last_error.length > 60 ? `${job.last_error.slice(0, 59)}…` : job.last_error });
const attemptsOf = (job: JobView) => ({ ...job, attempts: `${job.attempts}/${job.max_attempts}` });

/** `reelbase jobs list|show|retry|cancel`: the operator's job console. */
export function registerJobs(program: Command, io: CliIo): void {
  const jobs = program
    .command('jobs')
    .description('the job console: background jobs (transcodes, webhook deliveries, removals) on a store, or through a server with an admin token')
    .addHelpText(
      'after',
      [
        '',
        'Offline (--store, REELBASE_STORE) the console works on the store as its operator, with no token.',
        'Through a server (--base-url, REELBASE_URL, a profile) it needs a token with the admin scope:',
        'the first-run token has it; `reelbase tokens create --user ID --scopes all,admin` makes one (`all` alone does not include it).',
        '',
        'Examples:',
        '  reelbase jobs list --state failed',
        '  reelbase jobs show 42',
        '  reelbase jobs retry 42 --base-url https://videos.example.org --token $ADMIN_TOKEN',
      ].join('\n'),
    );

  addTargetOptions(
    jobs
      .command('list')
      .description('list jobs, newest first')
      .addOption(new Option('--state <state>', 'only jobs in this state').choices([...jobStates]))
      .option('--kind <kind>', 'only jobs of this kind: transcode, webhook, blobs.delete, uploads.abort, repackage')
      .option('--video <id>', 'only jobs about this video')
      .option('--page <n>', 'page of the list', '1')
      .option('--per-page <n>', 'jobs a page (at most 100)', '25')
      .option('--json', 'print the list as JSON'),
  ).action(async (opts: ListOptions) => {
    const page = { page: positive('--page', opts.page, 1_000_000), perPage: positive('--per-page', opts.perPage, 100) };
    const filter: JobFilter = { state: opts.state, kind: opts.kind, subject: opts.video };
    await withConsole(io, opts, (c) => c.list(filter, page), (body) => {
      const { data, total } = body as { data: JobView[]; total: number };
      if (data.length) io.stdout(renderTable(data.map(shortError).map(attemptsOf), jobColumns));
      line(io.stderr, `page ${page.page} of ${Math.max(1, Math.ceil(total / page.perPage))}, ${total} in all`);
    });
  });

  addTargetOptions(jobs.command('show').description('show one job: attempts, last error, times, its payload').argument('<id>').option('--json', 'print the job as JSON')).action(
    async (id: string, opts: TargetOptions & Json) => withConsole(io, opts, (c) => c.show(id), (body) => io.stdout(renderRecord(body))),
  );

  addTargetOptions(
    jobs.command('retry').description('run a failed job again with fresh attempts (a queued one: now, skipping its back-off)').argument('<id>').option('--json', 'print the job as JSON'),
  ).action(async (id: string, opts: TargetOptions & Json) =>
    withConsole(io, opts, (c) => c.retry(id), (body) => {
      const job = body as JobView;
      line(io.stdout, `Job ${job.id} (${job.kind}, subject ${job.subject}) is queued again, due ${job.due_time}; attempts ${job.attempts} of ${job.max_attempts}.`);
    }),
  );

  addTargetOptions(
    jobs.command('cancel').description('fail a queued or running job for good (a transcode’s video then reads transcode_error)').argument('<id>').option('--json', 'print the job as JSON'),
  ).action(async (id: string, opts: TargetOptions & Json) =>
    withConsole(io, opts, (c) => c.cancel(id), (body) => {
      const job = body as JobView;
      line(io.stdout, `Job ${job.id} (${job.kind}, subject ${job.subject}) is cancelled: ${job.state}.`);
    }),
  );
}
