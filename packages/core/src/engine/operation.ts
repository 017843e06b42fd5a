import type { Struct } from 'superstruct';
import type { Store } from '../store/store';
import type { Principal } from './auth';
import type { ServiceConfig } from './config';
import type { ParsedRequest } from './request';
import type { Scope } from './scopes';
import { codes } from './errors';
import { since, type Change, type Version } from './versions';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler gets: validated params, path variables, the caller and the store (a transaction for writes). */
export interface Context<P> {
  params: P;
  path: Record<string, string>;
  /** True when the operation was reached through its `/me/...` path. */
  viaMe: boolean;
  principal: Principal;
  store: Store;
  now: () => Date;
  config: ServiceConfig;
  version: Version;
  request: ParsedRequest;
  /** Origin for absolute links, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** The transport's video files, when it has them. */
  blobs?: import('../blobs/blob-store').BlobAccess;
  /** The transport's image, frame and caption tools, when it has them. */
  media?: import('../media/media-tools').MediaTools;
  /** The request body as bytes, for operations that take a file (`rawBody`). */
  rawBody?: Uint8Array;
  /** Signs media links. */
  links: import('../media/link-signer').LinkSigner;
  /** The caller's network address, when the transport knows it (the sign-in limit counts by it). */
  clientAddress?: string;
}

/** A handler's answer; the service adds content type, `fields` trimming and headers. */
export interface Reply {
  status: number;
  body?: unknown;
  /** Representation kind for the typed content type (`video`, `user`…); null → application/json. */
  kind?: string | null;
  headers?: Record<string, string>;
  /** A blob to stream instead of a JSON body (the file endpoint); the transport moves the bytes. */
  file?: FileReply;
  /** An HTML page instead of a JSON body (the player). */
  html?: string;
  /** Work the transport starts once the answer is committed (a pull upload fetching its link). */
  tasks?: Task[];
  /** Bytes made in memory (a placeholder image, a playlist) to send instead of a JSON body. */
  bytes?: BytesReply;
  /** The operation queued background jobs: this process's idle workers are woken once it commits. */
  jobsQueued?: true;
  /** Blobs (keys, or prefixes of whole trees) no longer owned once the operation commits: removed then. */
  discard?: string[];
}

export interface BytesReply {
  data: Uint8Array;
  type: string;
}

/** Background work for the transport: fetch `link` into upload `upload` (core checks both again). */
export type Task = { kind: 'pull'; upload: string; link: string };

/** The bytes a transport is to send: the blob `key` of `size` bytes, typed `type`. */
export interface FileReply {
  key: string;
  size: number;
  type: string;
  /** Sent as an attachment under this name. */
  downloadName?: string;
  /** When the file was written (Last-Modified), where the blob store said. */
  modified?: Date;
}

/** One row of SPEC.md's endpoint list. */
export interface Operation<P = unknown> {
  /** Stable dotted id, e.g. `videos.update`; the CLI and docs name operations by it. */
  id: string;
  summary: string;
  method: Method;
  /** Every path that reaches it; `/me/...` and `/users/{user_id}/...` pairs are one operation. */
  paths: readonly string[];
  /** Scope the token needs; undefined means anyone, even anonymous, may call it. */
  scope?: Scope;
  /**
   * The scopes a caller needs for this operation's private answers: to read the user's own
   * non-public resources as their owner (engine/read-as.ts). Undefined: `private` for a read
   * anybody may make, nothing more for the rest.
   */
  privateReads?: readonly Scope[];
  /** `user`: an authenticated caller is needed even though no scope is (e.g. `GET /me`). */
  auth?: 'user';
  /**
   * `client`: the caller is an app authenticating itself (HTTP Basic, the OAuth grant endpoints),
   * not a bearer token: the engine identifies nobody and the handler authenticates the app.
   */
  credentials?: 'client';
  /**
   * The shape of this operation's errors: `oauth` `{error, error_description}` (the hosted API's
   * auth-error, RFC 6749 §5.2), `legacy` `{error}` (its legacy-error); the Error representation otherwise.
   */
  errorShape?: 'oauth' | 'legacy';
  /** The body carries secrets (a password, a client secret, a code): an error report never shows it. */
  secretBody?: true;
  /** The 401 code this family answers (SPEC.md, Errors): 8003 unless stated. */
  invalidCredentials?: number;
  /** The 401 code answered before `until` took effect, where SPEC.md names an "earlier form". */
  earlierInvalidCredentials?: { code: number; until: Change };
  /** Query params for GET, body params otherwise. */
  params?: Struct<P, unknown>;
  /**
   * The body is a file (an image, a captions file), not parameters: read whole up to `maxBytes`
   * and handed over as `ctx.rawBody`; a larger one is refused with `tooLarge`.
   */
  rawBody?: { maxBytes(config: ServiceConfig): number; tooLarge(maxBytes: number): import('./errors').ApiError };
  /** The handler opens its own transactions (slow work, such as decoding an image, stays outside them). */
  ownTransaction?: true;
  handle(ctx: Context<P>): Promise<Reply>;
}

/** The 401 code `op` answers at `version`. */
export const invalidCredentialsCode = (op: Operation<unknown>, version: Version): number =>
  op.earlierInvalidCredentials && !since(version, op.earlierInvalidCredentials.until)
    ? op.earlierInvalidCredentials.code
    : op.invalidCredentials ?? codes.invalidCredentials;

/** Declares an operation with its params type inferred from the struct. */
export const operation = <P>(op: Operation<P>): Operation<P> => op;

export const ok = (body: unknown, kind: string | null): Reply => ({ status: 200, body, kind });
export const created = (body: unknown, kind: string | null): Reply => ({ status: 201, body, kind });
export const accepted = (body: unknown, kind: string | null): Reply => ({ status: 202, body, kind });
export const noContent = (): Reply => ({ status: 204 });
/** 204 for a deletion whose files (blob keys or prefixes) are removed once it commits. */
export const deleted = (files: string[]): Reply => ({ status: 204, discard: files });

/** PATCH answers 200 with the resource from 3.2, 204 before (SPEC.md, Versioning 3.2). */
export const updated = (ctx: Context<unknown>, body: unknown, kind: string): Reply =>
  since(ctx.version, 'patchReturnsResource') ? ok(body, kind) : noContent();
