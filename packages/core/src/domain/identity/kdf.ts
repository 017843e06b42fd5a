import type { ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Every password hash (sign-in, sign-up, video and album passwords) goes through here: scrypt on
 * a worker thread, never on the event loop, and at most `maxRunning` at once, so a burst of
 * guesses queues here instead of taking tens of MiB each and every core. The threads lower their
 * own priority (Linux nice is per thread): anybody may send guesses, and the hashes they cost must
 * not take CPU from serving requests on a busy host, where an equal-priority hashing thread halved
 * what the event loop got.
 */
const maxRunning = Math.min(2, Math.max(1, availableParallelism() - 1));
const niceness = 10;

// Plain JavaScript, evaluated: the thread needs no module loader (or tsx) to start. Only on Linux
// does setpriority(0) mean the calling thread; elsewhere it would lower the whole process.
const threadSource = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
if (process.platform === 'linux') try { require('node:os').setPriority(${niceness}); } catch {}
parentPort.on('message', ({ password, salt, keyLength, options }) => {
  try {
    parentPort.postMessage({ key: scryptSync(password, salt, keyLength, options) });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message || e) });
  }
});
`;

type Answer = { key: Uint8Array } | { error: string };

const idle: Worker[] = [];
let running = 0;
const waiting: ((worker: Worker | null) => void)[] = [];
let runs = 0;

/** How many hashes have started in this process (tests count what a burst made the server do). */
export const kdfRuns = (): number => runs;

function newThread(): Worker {
  return new Worker(threadSource, { eval: true });
}

/** A thread to hash on: an idle one, a new one below the cap, or the next one freed. */
async function take(): Promise<Worker> {
  if (running < maxRunning) {
    running++;
    return idle.pop() ?? newThread();
  }
  const handed = await new Promise<Worker | null>((resolve) => waiting.push(resolve));
  return handed ?? newThread();
}

/** Gives a thread back (null: it broke and is gone): straight to the next waiter, else idle. */
function give(worker: Worker | null): void {
  const next = waiting.shift();
  if (next) return next(worker);
  running--;
  if (worker) idle.push(worker);
}

/** scrypt of `password` (as given) with `salt`, `keyLength` bytes long. */
export async function scryptKey(password: string, salt: Buffer | string, keyLength: number, options: ScryptOptions = {}): Promise<Buffer> {
  const worker = await take();
  runs++;
  let broken = false;
  // A thread keeps the process alive while it hashes (a CLI command awaiting a hash has nothing else), never while idle.
  worker.ref();
  try {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const failed = (e: Error) => {
        broken = true;
        reject(e);
      };
      worker.once('error', failed);
      worker.once('message', (a: Answer) => {
        worker.off('error', failed);
        resolve(a);
      });
      worker.postMessage({ password, salt, keyLength, options });
    });
    if ('error' in answer) throw new Error(answer.error);
    return Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.byteLength);
  } finally {
    worker.unref();
    if (broken) void worker.terminate();
    give(broken ? null : worker);
  }
}
