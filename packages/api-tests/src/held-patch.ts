import { stat } from 'node:fs/promises';
import { request } from 'node:http';
import { hangGuardMs } from './hang-guard';

/** A tus PATCH in the middle of its transfer: part of the body sent, the rest held back. */
export interface HeldPatch {
  /** Sends the rest and ends the request; answers the response status. */
  finish(): Promise<number>;
  /** Drops the connection mid-body (a client whose network went away). */
  abort(): void;
  /** Settles once the connection is gone (answered, cut, or its server killed). */
  closed: Promise<void>;
}

/** Starts a PATCH of `bytes` at `offset` to a tus link, sending only the first `sent` bytes for now. */
export function holdPatch(link: string, bytes: Uint8Array, sent: number, offset = 0): HeldPatch {
  const req = request(link, {
    method: 'PATCH',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
      'Content-Length': String(bytes.length),
    },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  status.catch(() => undefined);
  const closed = new Promise<void>((resolve) => req.on('close', () => resolve()));
  req.flushHeaders();
  req.write(bytes.subarray(0, sent));
  return {
    finish() {
      req.end(bytes.subarray(sent));
      return status;
    },
    abort: () => req.destroy(),
    closed,
  };
}

/**
 * Polls `ready` every few milliseconds until it holds: for a condition in another process or on
 * disk (bytes arriving at a server), never for time to pass. Fails after `ms` (by default only a
 * hang: hang-guard.ts).
 */
export async function until(ready: () => boolean | Promise<boolean>, what: string, ms = hangGuardMs): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The size of a file, 0 when it does not exist (yet). */
export function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}
