import { Writable } from 'node:stream';
import type { Level, Logger, pino as Pino } from 'pino';

export type { Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

export interface LogSettings {
  level: string;
  format: LogFormat;
}

/** The longest a line waits in the buffer of a quiet server. */
const flushMs = 1000;
/** What a busy server gathers before it writes: half a Linux pipe's 64 KB. */
const batchBytes = 32 * 1024;

const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * REELBASE_LOG_LEVEL (default info; `silent` logs nothing) and REELBASE_LOG_FORMAT (json or
 * pretty; default pretty on a terminal, json otherwise, for a collector to parse).
 */
export function logSettingsFrom(env: NodeJS.ProcessEnv, terminal: boolean): LogSettings {
  const level = (env.REELBASE_LOG_LEVEL ?? 'info').trim().toLowerCase();
  if (!levels.includes(level)) throw new Error(`REELBASE_LOG_LEVEL: "${env.REELBASE_LOG_LEVEL}" is not one of ${levels.join(', ')}`);
  const format = (env.REELBASE_LOG_FORMAT ?? (terminal ? 'pretty' : 'json')).trim().toLowerCase();
  if (format !== 'json' && format !== 'pretty') throw new Error(`REELBASE_LOG_FORMAT: "${env.REELBASE_LOG_FORMAT}" is not json or pretty`);
  return { level, format };
}

/**
 * One JSON object a line (`time` in ISO 8601), or pino-pretty's lines for a person at a terminal,
 * each handed to `write`, or by default written to the process's stdout without blocking.
 */
export async function createLogger(settings: LogSettings, write?: (text: string) => void, colour = false): Promise<Logger> {
  // Loaded when asked for: a process that logs nothing (a test's server, a CLI command) does not pay for them.
  const { pino } = await import('pino');
  const timestamp = isoTimeBySecond();
  const options = { level: settings.level, base: undefined, timestamp };
  const sink = settings.format === 'json' ? (write ? { write } : stdoutLines(pino)) : await prettyLines(write ?? ((text) => void process.stdout.write(text)), colour);
  const logger = pino(options, sink);
  writers.set(logger, (level, fields) => {
    if (logger.isLevelEnabled(level)) sink.write(`{"level":${logger.levels.values[level]}${timestamp()},${JSON.stringify(fields).slice(1)}\n`);
  });
  return logger;
}

/**
 * Lines to the process's stdout, without blocking: asynchronous, in writes of 32 KB or every
 * second, whichever comes first. A log reader that falls behind (a full pipe) never stalls
 * requests, and a busy server makes one write per hundred lines rather than one each (each write
 * is a hop through libuv's thread pool, which cost more than the line itself at 4 KB: issue 47's
 * bench). Lines are encoded straight into the batch's buffer: a Buffer a line that sonic-boom then
 * copies into one was a third of a line's cost (and its garbage); sonic-boom's text mode appends
 * each line to one string and measures its byte length again, re-copying the batch at every line.
 * What is batched goes to sonic-boom before pino flushes it at exit.
 */
function stdoutLines(pino: typeof Pino): { write(line: string): void } {
  let batch = Buffer.allocUnsafe(batchBytes);
  let used = 0;
  const handOver = () => {
    if (used === 0) return;
    // sonic-boom's types know only its text mode's strings; in buffer mode it takes Buffers.
    destination.write(batch.subarray(0, used) as unknown as string);
    batch = Buffer.allocUnsafe(batchBytes);
    used = 0;
  };
  // Before pino's own exit handlers (registered by pino.destination), so that they flush it all.
  process.once('beforeExit', handOver).once('exit', handOver);
  const destination = pino.destination({ dest: 1, sync: false, minLength: 0, maxWrite: 2 * batchBytes, contentMode: 'buffer' });
  setInterval(() => {
    try {
      handOver();
      destination.flush();
    } catch {
      // Closed: the process is exiting, and pino has written the rest.
    }
  }, flushMs).unref();
  return {
    write(line) {
      // A UTF-16 unit is at most 3 bytes of UTF-8: a line that may not fit starts the next batch.
      if (used + 3 * line.length > batchBytes) {
        handOver();
        if (3 * line.length > batchBytes) return void destination.write(Buffer.from(line) as unknown as string);
      }
      used += batch.write(line, used);
    },
  };
}

/** pino-pretty's lines for a person at a terminal, each handed to `write`. */
async function prettyLines(write: (text: string) => void, colour: boolean): Promise<Writable> {
  const { default: pretty } = await import('pino-pretty');
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(chunk.toString());
      done();
    },
  });
  return pretty({ sync: true, destination, colorize: colour, ignore: [...inMessage].join(','), messageFormat: oneLine });
}

/** A line's fields: flat, `msg` among them (last, where pino puts it). */
export type LineFields = Readonly<Record<string, string | number | null>> & { readonly msg: string };

/** Writes one line at `level` (nothing when the logger's level is above it). */
export type LineWriter = (level: Level, fields: LineFields) => void;

const writers = new WeakMap<Logger, LineWriter>();

/**
 * How the request log writes its line through `logger`: the line pino would write, but made by
 * one JSON.stringify of its flat fields rather than pino's generic walk of each field (the largest
 * part of the line's cost in issue 47's bench). A logger not made by createLogger gets pino's call.
 */
export const lineWriter = (logger: Logger): LineWriter =>
  writers.get(logger) ??
  ((level, { msg, ...fields }) => {
    logger[level](fields, msg);
  });

/**
 * pino's `isoTime` (`,"time":"2026-12-07T15:21:21.401Z"`), with the date formatted once a second
 * rather than once a line: toISOString was 2–3 µs of each request's line (issue 47's bench).
 */
function isoTimeBySecond(): () => string {
  let second = NaN;
  let prefix = '';
  return () => {
    const now = Date.now();
    const s = Math.floor(now / 1000);
    if (s !== second) {
      second = s;
      prefix = `,"time":"${new Date(s * 1000).toISOString().slice(0, 'YYYY-MM-DDTHH:MM:SS.'.length)}`;
    }
    return `${prefix}${String(now - s * 1000).padStart(3, '0')}Z"`;
  };
}

/** The fields a pretty line shows in its message; the others (an error's stack) follow it. */
const inMessage = new Set(['req_id', 'method', 'route', 'path', 'status', 'ms', 'bytes', 'operation', 'user', 'app', 'ip', 'job_id', 'kind', 'video', 'subject', 'attempt', 'outcome']);

/** `GET /videos/7 200 2.1 ms user 3`, `job 88 transcode video 42 done 5210 ms`: a request or a job attempt on one line. */
function oneLine(log: Record<string, unknown>, messageKey: string): string {
  const msg = String(log[messageKey] ?? '');
  const ms = typeof log.ms === 'number' ? ` ${log.ms} ms` : '';
  if (msg === 'request') return `${log.method} ${log.path} ${log.status}${ms}${log.user ? ` user ${log.user}` : ''}`;
  if (log.job_id !== undefined) return `job ${log.job_id} ${log.kind} ${log.video !== undefined ? `video ${log.video}` : log.subject} ${log.outcome ?? 'started'}${ms}`;
  return log.req_id ? `${msg} (request ${log.req_id})` : msg;
}
