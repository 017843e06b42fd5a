import type { ServerResponse } from 'node:http';
import { ApiError, rateLimitedCode } from '@reelbase/core';

/** What a refused upload is told to wait: an upload usually takes longer, so clients retry in waves. */
export const uploadRetryAfterSeconds = 10;

/**
 * The cap on uploads moving bytes at once (ServiceConfig.maxConcurrentUploads, null: none). A
 * request takes a slot with `tryTake` before it reads a byte or creates a file, and gives it back
 * when its response closes; a pull, which nobody waits on, queues with `take` instead.
 */
export class UploadSlots {
  private busy = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly max: number | null) {}

  /** A slot for the request behind `res`, released when the response closes; false when all are taken. */
  tryTake(res: ServerResponse): boolean {
    if (this.max !== null && this.busy >= this.max) return false;
    this.busy++;
    res.once('close', this.releaser());
    return true;
  }

  /** Waits for a slot; call the answer once done. */
  async take(): Promise<() => void> {
    if (this.max !== null && this.busy >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.busy++;
    return this.releaser();
  }

  /** Releases once however often it is called; a queued pull inherits the slot. */
  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.queue.shift();
      if (next) next();
      else this.busy--;
    };
  }
}

/** 503 with Retry-After: the server is at its upload cap (a server-wide limit, not the caller's fault). */
export const uploadsBusy = (max: number | null): ApiError =>
  new ApiError(
    503,
    rateLimitedCode,
    'Too many uploads are in progress right now. Please try again shortly.',
    `This server moves at most ${max} uploads at once; nothing of this request was kept. Retry in ${uploadRetryAfterSeconds} seconds.`,
    undefined,
    { 'Retry-After': String(uploadRetryAfterSeconds) },
  );
