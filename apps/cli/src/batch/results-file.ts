import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { UsageError } from '../errors';
import type { BatchLine } from './batch-file';

/** One line of a results file: what was sent and how it ended. */
export interface ResultRecord {
  line: number;
  id?: string | number;
  method: string;
  path: string;
  /** The HTTP status; null when no answer came (network error). */
  status: number | null;
  /** True for a 2xx answer: `--resume` skips the line. */
  ok: boolean;
  attempts: number;
  /** The answer's body on success (absent for an empty one). */
  body?: unknown;
  /** The Error representation the API answered, or the network error's message. */
  error?: unknown;
}

export interface ResultsFile {
  /** Line numbers already done (2xx) by an earlier run. */
  readonly done: ReadonlySet<number>;
  /** Appends one record with a single write, so a killed process loses no finished line. */
  append(record: ResultRecord): void;
  /** Flushes to disk and closes. */
  close(): void;
}

/**
 * The done records of an existing results file, last record per line winning, checked against
 * the batch: a record whose line is not in it, or names another request, means the file belongs
 * to another batch (usage error). An unreadable line (cut short by a crash) is ignored.
 */
export function readDone(path: string, lines: readonly BatchLine[]): ResultRecord[] {
  if (!existsSync(path)) return [];
  const byLine = new Map(lines.map((l) => [l.line, l]));
  const latest = new Map<number, ResultRecord>();
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    let record: ResultRecord;
    try {
      record = JSON.parse(raw) as ResultRecord;
    } catch {
      continue;
    }
    if (typeof record?.line !== 'number') continue;
    const sent = byLine.get(record.line);
    if (!sent || sent.method !== record.method || sent.path !== record.path) {
      const had = sent ? `${sent.method} ${sent.path}` : 'no request';
      throw new UsageError(`${path} does not belong to this batch: it records ${record.method} ${record.path} for line ${record.line}, where the batch has ${had}`);
    }
    latest.set(record.line, record);
  }
  return [...latest.values()].filter((r) => r.ok).sort((a, b) => a.line - b.line);
}

/**
 * Opens the results file of a run. Without `resume` an existing non-empty file is a usage error
 * (running again would repeat what it records). With `resume` the file is rewritten (atomically)
 * to its done records alone; failed lines run again and get fresh records.
 */
export function openResults(path: string, lines: readonly BatchLine[], resume: boolean): ResultsFile {
  if (!resume && existsSync(path) && statSync(path).size > 0) {
    throw new UsageError(`${path} already exists: add --resume to skip the lines it records as done, or choose another --results file`);
  }
  const kept = resume ? readDone(path, lines) : [];
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, kept.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const tmpFd = openSync(temporary, 'r+');
  fsyncSync(tmpFd);
  closeSync(tmpFd);
  renameSync(temporary, path);
  const fd = openSync(path, 'a');
  return {
    done: new Set(kept.map((r) => r.line)),
    append: (record) => void writeSync(fd, `${JSON.stringify(record)}\n`),
    close() {
      fsyncSync(fd);
      closeSync(fd);
    },
  };
}
