import type { ServerResponse } from 'node:http';
import type { BlobStore, Store } from '@reelbase/core';

export const healthPath = '/health';
export const readyPath = '/health/ready';

/** A probe that has not answered in this long fails readiness (issue 47: within 2 s). */
const probeTimeoutMs = 2_000;

interface CheckResult {
  status: 'ok' | 'failing';
  ms?: number;
  error?: string;
}

/**
 * Liveness and readiness of one process. Readiness asks the store and the blob store a cheap
 * question each (a read of a key that does not exist). A probe still in flight is joined rather
 * than repeated until it has had its 2 s, so a stalled database holds one connection for every
 * 2 s of stall, not one per probe.
 */
export class Health {
  #draining = false;
  readonly #probes: Record<string, () => Promise<unknown>>;
  readonly #pending = new Map<string, { probe: Promise<unknown>; started: number }>();

  constructor(store: Store, blobs: BlobStore) {
    this.#probes = { store: () => store.get('service_keys', 'readiness-probe'), blobs: () => blobs.stat('readiness-probe') };
  }

  /** From a SIGTERM on: readiness answers 503 so that balancers stop sending, while requests are still served. */
  drain(): void {
    this.#draining = true;
  }

  /** Answers `/health` or `/health/ready` on `res`; false for any other path. */
  answer(url: string, res: ServerResponse): boolean | Promise<boolean> {
    const path = url.split('?')[0];
    if (path === healthPath) return send(res, 200, { status: 'ok' });
    if (path !== readyPath) return false;
    return this.#ready().then(({ ready, checks }) => send(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks }));
  }

  async #ready(): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> {
    const names = Object.keys(this.#probes);
    const results = await Promise.all(names.map((name) => this.#check(name)));
    const checks: Record<string, CheckResult> = Object.fromEntries(names.map((name, i) => [name, results[i]]));
    if (this.#draining) checks.shutdown = { status: 'failing', error: 'the server is shutting down' };
    return { ready: Object.values(checks).every((c) => c.status === 'ok'), checks };
  }

  async #check(name: string): Promise<CheckResult> {
    const started = performance.now();
    const pending = this.#pending.get(name);
    let probe = pending && started - pending.started < probeTimeoutMs ? pending.probe : undefined;
    if (!probe) {
      const mine: Promise<unknown> = this.#probes[name]().finally(() => this.#pending.get(name)?.probe === mine && this.#pending.delete(name));
      probe = mine;
      this.#pending.set(name, { probe, started });
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${probeTimeoutMs / 1000} s`)), probeTimeoutMs);
    });
    try {
      await Promise.race([probe, late]);
      return { status: 'ok', ms: Math.round(performance.now() - started) };
    } catch (e) {
      return { status: 'failing', error: e instanceof Error ? e.message : String(e) };
    } finally {
      clearTimeout(timer);
    }
  }
}

function send(res: ServerResponse, status: number, body: unknown): true {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' }).end(text);
  return true;
}
