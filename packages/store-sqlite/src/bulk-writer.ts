import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BoundInsert } from './sqlite-types';

/** What the writer thread is started with. */
export interface BulkWriterData {
  path: string;
  cacheMiB: number;
  fresh: boolean;
}

/** A batch to run in one transaction, or null to close. */
export type BulkRequest = { id: number; inserts: BoundInsert[] } | null;

/** Each INSERT's last rowid, in order, or what SQLite threw (its code names a constraint). */
export type BulkAnswer = { id: number; rowids: number[] } | { id: number; error: { message: string; code?: string } };

/**
 * Starts the thread, whose module sits beside this one: .js in dist, .ts when run from source
 * (tests, `--import tsx`). The hooks `--import tsx` registers do not reach worker threads on
 * Node 20, so from source the thread registers tsx's ESM hooks itself before loading its module.
 */
function startThread(data: BulkWriterData): Worker {
  if (extname(fileURLToPath(import.meta.url)) !== '.ts') return new Worker(new URL('./bulk-writer-thread.js', import.meta.url), { workerData: data });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const thread = JSON.stringify(new URL('./bulk-writer-thread.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then((tsx) => tsx.register()).then(() => import(${thread}))`, { eval: true, workerData: data });
}

/**
 * The writer of a bulk load's insertMany batches, on a thread and connection of its own, so that
 * the loader builds and binds its next batch while SQLite writes this one (a million-video seed
 * spends about as long in each). The store's mutex still runs one write at a time: a batch goes
 * to the thread only when the writer connection holds no transaction, and the next write waits
 * for its answer. The thread keeps the process alive only while a batch is out.
 */
export class BulkWriter {
  /** Started by the first batch: a load may write none (a store opened for one and closed). */
  #thread: { worker: Worker; exited: Promise<void> } | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #next = 0;
  #failure: Error | undefined;

  constructor(private readonly data: BulkWriterData) {}

  /** Runs the INSERTs in one transaction; answers each one's last rowid. */
  run(inserts: BoundInsert[]): Promise<number[]> {
    if (this.#failure) return Promise.reject(this.#failure);
    const { worker } = (this.#thread ??= this.#start());
    const id = ++this.#next;
    const answer = new Promise<number[]>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    if (this.#waiting.size === 1) worker.ref();
    worker.postMessage({ id, inserts } satisfies BulkRequest);
    return answer;
  }

  /** Closes the thread's connection (after the batches sent) and waits for the thread to end. */
  async close(): Promise<void> {
    if (!this.#thread) return;
    this.#thread.worker.ref();
    this.#thread.worker.postMessage(null satisfies BulkRequest);
    await this.#thread.exited;
  }

  #start(): { worker: Worker; exited: Promise<void> } {
    const worker = startThread(this.data);
    worker.unref();
    worker.on('message', (answer: BulkAnswer) => this.#answer(answer));
    worker.on('error', (error) => this.#fail(error));
    const exited = new Promise<void>((resolve) =>
      worker.on('exit', (code) => {
        this.#fail(new Error(`the sqlite bulk writer thread exited (code ${code})`));
        resolve();
      }),
    );
    return { worker, exited };
  }

  #answer(answer: BulkAnswer): void {
    const waiting = this.#waiting.get(answer.id);
    if (!waiting) return;
    this.#waiting.delete(answer.id);
    if (this.#waiting.size === 0) this.#thread?.worker.unref();
    if ('rowids' in answer) waiting.resolve(answer.rowids);
    else waiting.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}

interface Waiting {
  resolve: (rowids: number[]) => void;
  reject: (error: Error) => void;
}
