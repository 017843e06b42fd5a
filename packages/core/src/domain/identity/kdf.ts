import { scrypt, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * Every password hash (sign-in, sign-up, video and album passwords) goes through here: async
 * scrypt, which runs on libuv's thread pool and leaves the event loop free, and at most
 * `maxRunning` at once, so a burst of guesses queues here instead of taking every pool thread
 * (which file reads and DNS share), tens of MiB each, and the core the event loop runs on (on two
 * cores a second hash at once would compete with the event loop for the other core).
 */
const maxRunning = Math.min(2, Math.max(1, availableParallelism() - 1));
let running = 0;
const waiting: (() => void)[] = [];
let runs = 0;

/** How many hashes have started in this process (tests count what a burst made the server do). */
export const kdfRuns = (): number => runs;

async function slot(): Promise<() => void> {
  if (running >= maxRunning) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  // A freed slot passes straight to the next waiter, so `running` never drops and rises again between them.
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

/** scrypt of `password` (as given) with `salt`, `keyLength` bytes long. */
export async function scryptKey(password: string, salt: Buffer | string, keyLength: number, options: ScryptOptions = {}): Promise<Buffer> {
  const release = await slot();
  runs++;
  try {
    return await new Promise<Buffer>((resolve, reject) => scrypt(password, salt, keyLength, options, (e, key) => (e ? reject(e) : resolve(key))));
  } finally {
    release();
  }
}
