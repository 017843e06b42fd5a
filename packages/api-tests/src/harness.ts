import { createService, createToken, createUser, isoTime, parseScopes, type BlobStore, type Service, type Store, type UserRecord } from '@reelbase/core';
import { serve, type RunningServer, type ServeOptions } from '@reelbase/http';
import { startWorker } from '@reelbase/worker';
import type { Worker } from '@reelbase/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestDriver } from './drivers';
import { send } from './http-client';

/** A settable clock: tests move time explicitly instead of sleeping. */
export class TestClock {
  constructor(public time = Date.parse('2026-01-02T03:04:05Z')) {}
  now = (): Date => new Date(this.time);
  advance(seconds: number): void {
    this.time += seconds * 1000;
  }
}

export interface CallOptions {
  token?: string;
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent urlencoded (default Content-Type), keys in dot notation as given. */
  form?: Record<string, string>;
  /** Sent as is. */
  raw?: string;
  headers?: Record<string, string>;
  /** API version for the Accept header, e.g. '3.2'. */
  version?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  // Response bodies are arbitrary JSON; tests read into them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface Fixture {
  user: UserRecord;
  token: string;
}

/** A real server on an ephemeral port over a fresh store of one driver. */
export class Harness {
  /** Kept-alive connections to this server only, closed with it. */
  readonly #agent = new Agent({ keepAlive: true });

  private constructor(
    readonly clock: TestClock,
    readonly service: Service,
    readonly server: RunningServer,
    private readonly cleanup: () => void,
    /** The server's video files (blob store) directory, a fresh temporary one. */
    readonly filesDir: string = '',
    /** The transcode worker, run by hand: `settle()` runs every due job (no sleeping, no polling). */
    readonly worker: Worker | null = null,
    /** Another store on this server's database, as another process would open it (drivers shared by processes). */
    readonly reopen?: () => Promise<Store>,
  ) {}

  /** Runs every due background job (transcodes…) to the end; answers how many ran. */
  settle(): Promise<number> {
    return this.worker!.drain();
  }

  /** `blobs`: where video files live (default a fresh directory), `redirectFiles` as serve's option; `serve`: more of serve's options (logs, metrics, an embedded worker). */
  static async start(
    driver: TestDriver,
    config: Parameters<typeof createService>[0]['config'] = {},
    o: { blobs?: BlobStore; redirectFiles?: boolean; trustProxy?: boolean; serve?: Pick<ServeOptions, 'logger' | 'metrics' | 'worker'> } = {},
  ): Promise<Harness> {
    const { store, cleanup, reopen } = await driver.open();
    const clock = new TestClock();
    // The clock never moves unless a test moves it, so a walk of thousands of requests would spend
    // one window's allowance: rate limiting is off unless a test configures it.
    const service = createService({ store, clock: clock.now, config: { rateLimit: null, ...config }, onError: (e) => console.error('UNEXPECTED', e) });
    const filesDir = mkdtempSync(join(tmpdir(), 'reelbase-files-'));
    const server = await serve(service, { port: 0, host: '127.0.0.1', filesDir, blobs: o.blobs, redirectFiles: o.redirectFiles, trustProxy: o.trustProxy, worker: false, ...o.serve });
    // Seeds run in this process and can block its loop past the 5 s idle timeout, after which the
    // server's timer may close a kept-alive socket just as fetch reuses it (ECONNRESET).
    server.server.keepAliveTimeout = 60_000;
    const worker = startWorker(service, { filesDir, blobs: o.blobs, start: false });
    const removeAll = () => {
      cleanup();
      rmSync(filesDir, { recursive: true, force: true });
    };
    return new Harness(clock, service, server, removeAll, filesDir, worker, reopen);
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.server.close();
    this.#agent.destroy();
    this.cleanup();
  }

  /** Creates a user directly in the store and a token with the given scopes. */
  async user(name: string, scopes = 'all', extra: Partial<UserRecord> = {}): Promise<Fixture> {
    const store = this.service.store;
    const now = this.clock.now();
    let user = await createUser(store, now, { name });
    if (Object.keys(extra).length) user = (await store.update<UserRecord>('users', user.id, extra))!;
    const { token } = await createToken(store, now, user.id, parseScopes(scopes));
    return { user, token };
  }

  /** Creates a video through the API (POST /me/videos) and answers its id. */
  async video(owner: Fixture, json: Record<string, unknown> = {}): Promise<string> {
    const r = await this.call('POST', '/me/videos', { token: owner.token, json: { name: 'Clip', ...json } });
    // A tus attempt answers 200 (issue 22), any other 201.
    const tus = ((json.upload as { approach?: unknown } | undefined)?.approach ?? json.type) === 'tus';
    if (r.status !== (tus ? 200 : 201)) throw new Error(`creating a video failed: ${r.status} ${r.text}`);
    return String(r.body.uri).split('/').pop()!;
  }

  /** `follower` follows `target`, written straight to the store (the follow endpoints are tested on their own). */
  async follow(follower: Fixture, target: Fixture): Promise<void> {
    await this.service.store.insert('follows', { user_id: follower.user.id, target_id: target.user.id, created_time: isoTime(this.clock.now()) });
  }

  async call(method: string, path: string, o: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.version) headers.accept = `application/vnd.vimeo.*+json;version=${o.version}`;
    let body: string | undefined;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    } else if (o.form) {
      body = new URLSearchParams(o.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (o.raw !== undefined) body = o.raw;
    const { status, headers: answered, text } = await send(this.server.url + path, { method, headers, body }, this.#agent);
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status, headers: answered, body: parsed, text };
  }
}
