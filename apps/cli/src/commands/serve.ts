import type { Command } from 'commander';
import { and, createToken, createUser, fillTagNames, parseScopes, type Service, type UserRecord } from '@reelbase/core';
import { closeOnSignals, drainSecondsFrom, parseAllowedHosts, serve, type CorsOrigins } from '@reelbase/http';
import { transcodeConcurrency } from '@reelbase/worker';
import { transcodingLine } from '../transcoding-line';
import { cwdOf, envOf, fromEnv, openService } from '../context';
import { openBlobsOf } from '../blobs-flag';
import { jsonCeilingWarning } from '../json-ceiling';
import { storeSpecFrom } from '../store-spec';
import { UsageError } from '../errors';
import { line, type CliIo } from '../io';
import { blobsOption, storeOption } from './options';
import { printNodeSupport } from '../node-support';
import { logUnexpected, loggerOf, metricsListenOf, metricsOptions, type MetricsFlags } from '../observability';

interface ServeOptions extends MetricsFlags {
  port?: string;
  host?: string;
  store?: string;
  cors?: string;
  trustProxy?: boolean;
  worker?: boolean;
  blobs?: string;
  publicUrl?: string;
  allowedHosts?: string;
}

/** `reelbase serve`: the HTTP API on a store; a store without users gets an `admin` and a one-time token. */
export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('serve the HTTP API (first run on an empty store creates user admin and prints a token)')
    .option('--port <port>', 'port to listen on, 0 for any free one (env PORT; default 8080)')
    .option('--host <host>', 'address to bind (env HOST; default 127.0.0.1; 0.0.0.0 for every interface)')
    .addOption(storeOption())
    .addOption(blobsOption())
    .option('--cors <origins>', 'origins allowed by CORS: *, a comma list of origins, or none (env REELBASE_CORS; default *)')
    .option(
      '--trust-proxy',
      'behind a load balancer or reverse proxy: take the client address (rate limits) from the last X-Forwarded-For entry and link origins from X-Forwarded-Proto/Host (env REELBASE_TRUST_PROXY=1)',
    )
    .option('--no-worker', 'run no transcode worker in this process (leave the jobs to `reelbase worker` processes)')
    .option('--public-url <url>', 'the origin of every absolute link, e.g. https://videos.example.com, whatever Host a request names (env REELBASE_BASE_URL; default each request’s own)')
    .option('--allowed-hosts <hosts>', 'answer only requests whose Host is one of these, a comma list of names (any port) or name:port; others get 400 (env REELBASE_ALLOWED_HOSTS; default any)')
    .addOption(metricsOptions()[0])
    .addOption(metricsOptions()[1])
    .action(async (opts: ServeOptions) => {
      const env = envOf(io);
      const port = parsePort(opts.port ?? fromEnv(env, 'PORT') ?? '8080');
      const host = opts.host ?? fromEnv(env, 'HOST') ?? '127.0.0.1';
      const corsFlag = opts.cors ?? fromEnv(env, 'REELBASE_CORS');
      const cors = corsFlag === undefined ? undefined : parseCors(corsFlag);
      const trustProxy = opts.trustProxy ?? parseSwitch('REELBASE_TRUST_PROXY', fromEnv(env, 'REELBASE_TRUST_PROXY'));
      const publicUrlFlag = opts.publicUrl ?? fromEnv(env, 'REELBASE_BASE_URL');
      const publicUrl = publicUrlFlag === undefined ? undefined : parsePublicUrl(publicUrlFlag);
      const hostsFlag = opts.allowedHosts ?? fromEnv(env, 'REELBASE_ALLOWED_HOSTS');
      const allowedHosts = hostsFlag === undefined ? undefined : parseAllowedHosts(hostsFlag);
      if (allowedHosts?.length === 0) throw new UsageError('--allowed-hosts: give at least one host name');
      const metrics = metricsListenOf(opts, io);
      const drainSeconds = drainSecondsFrom(env);
      const logger = await loggerOf(io);
      const { service, target, filesDir } = await openService(io, opts.store, publicUrl ? { baseUrl: publicUrl } : {}, logUnexpected(logger));
      // A store from before search read tags: its videos' tags are indexed once, resumably.
      await fillTagNames(service.store, (done, total) => line(io.stderr, `reelbase: indexing the tags of old videos for search: ${done}/${total}`));
      const blobs = await openBlobsOf(io, opts.blobs, filesDir);
      const redirectFiles = parseSwitch('REELBASE_BLOBS_REDIRECT', fromEnv(env, 'REELBASE_BLOBS_REDIRECT'));
      let running;
      try {
        running = await serve(service, {
          port,
          host,
          cors,
          filesDir,
          blobs,
          redirectFiles,
          trustProxy,
          publicUrl,
          allowedHosts,
          logger,
          metrics,
          worker: opts.worker === false ? false : { concurrency: transcodeConcurrency(env) },
        });
      } catch (e) {
        await service.close();
        throw new Error(`cannot listen on ${host}:${port}: ${(e as Error).message}`);
      }
      let admin;
      try {
        admin = await bootstrapAdmin(service);
      } catch (e) {
        await running.close();
        throw e;
      }
      line(io.stdout, `reelbase serving ${running.url} (store ${target})`);
      line(io.stdout, publicUrl ? `Links: ${publicUrl}` : 'Links: the origin each request names (Host)');
      if (allowedHosts) line(io.stdout, `Answering Host: ${allowedHosts.join(', ')}`);
      if (!publicUrl && !isLoopback(host)) {
        line(io.stderr, `reelbase: warning: bound to ${host} with no --public-url: absolute links take each request's Host header, which a client chooses; set --public-url (REELBASE_BASE_URL) or --allowed-hosts`);
      }
      printNodeSupport(io);
      line(io.stdout, `Video files: ${blobs.description}${redirectFiles && blobs.presign ? ' (media links redirect to it)' : ''}`);
      line(io.stdout, opts.worker === false ? 'No transcode worker here: run `reelbase worker` beside it.' : await transcodingLine(transcodeConcurrency(env)));
      if (running.metricsUrl) line(io.stdout, `Metrics: ${running.metricsUrl}/metrics (health: ${running.metricsUrl}/health/ready)`);
      const tooBig = await jsonCeilingWarning(storeSpecFrom(opts.store, env, cwdOf(io)));
      if (tooBig) line(io.stderr, tooBig);
      // The store as `target` names it: a database password never reaches the terminal.
      if (admin) printFirstRun(io, running.url, admin, opts.store === undefined ? undefined : target);
      io.onListening?.(running);
      const { signal } = io;
      if (!signal) {
        closeOnSignals(running, (text) => line(io.stderr, text), drainSeconds);
        line(io.stdout, 'Stop with Ctrl-C.');
        return new Promise<void>(() => {}); // the signal handlers end the process
      }
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      await running.close();
    });
}

/** On a store with no users: user `admin` and a token with every scope, the operator's `admin` (the job console) too, in one transaction. */
export async function bootstrapAdmin(service: Service): Promise<{ user: UserRecord; token: string } | null> {
  return service.store.transaction(async (tx) => {
    // Whether any user exists, not how many: counting 100,000 users took half a second of each start.
    if (await tx.findOne('users', and())) return null;
    const now = service.now();
    const user = await createUser(tx, now, { name: 'admin' }, service.config.defaultAccount);
    const { token } = await createToken(tx, now, user.id, parseScopes('all,admin'));
    return { user, token };
  });
}

function printFirstRun(io: CliIo, url: string, admin: { user: UserRecord; token: string }, storeFlag: string | undefined): void {
  const out = (text = '') => line(io.stdout, text);
  out();
  out(`First run: created user "admin" (/users/${admin.user.id}) and an access token with every scope.`);
  out('The token is shown only this once; keep it:');
  out();
  out(`    ${admin.token}`);
  out();
  out('Try it:');
  out();
  out(`    curl -H "Authorization: Bearer ${admin.token}" ${url}/me`);
  out();
  out(`More tokens later: reelbase tokens create --user ${admin.user.id} --scopes all${storeFlag ? ` --store ${storeFlag}` : ''}`);
  out();
}

export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`invalid port "${value}": expected 0 to 65535`);
  return port;
}

/** An http(s) origin, with an optional path prefix, as links start: no trailing slash, query or fragment. */
export function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(`--public-url: "${value}" is not a URL like https://videos.example.com`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new UsageError(`--public-url: "${value}" must be http or https, with no query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Whether a bind address reaches only this machine: then the Host a client names is its own business. */
const isLoopback = (host: string): boolean => /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i.test(host);

/** An on/off variable: 1/true/yes or 0/false/no; unset is off. */
function parseSwitch(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(v)) return true;
  if (['0', 'false', 'no'].includes(v)) return false;
  throw new UsageError(`${name}: "${value}" is not 1 or 0 (true/false, yes/no)`);
}

/** `*`, `none`, or a comma list of origins such as `https://app.example.com,http://localhost:3000`. */
export function parseCors(value: string): CorsOrigins {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  if (trimmed === 'none' || trimmed === '') return [];
  const origins = trimmed.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new UsageError(`--cors: "${origin}" is not an origin like https://app.example.com (no path)`);
  }
  return origins;
}
