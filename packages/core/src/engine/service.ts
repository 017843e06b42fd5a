import { type Store, StoreConflictError } from '../store/store';
import { BlobUnavailableError } from '../blobs/blob-store';
import { blobsUnavailable, ApiError, codes, OAuthError } from './errors';
import { deleteNow, enqueueDelete } from '../jobs/delete-job';
import type { JobRecord } from '../jobs/job-records';
import { bearerToken, identify, principalOf, type Identity, type Principal } from './auth';
import { defaultConfig, type ServiceConfig } from './config';
import { isListEnvelope, trimFields } from './fields';
import { invalidCredentialsCode, type Context, type Operation, type Reply } from './operation';
import { readParams } from './params';
import { headerOf, parseRequest, requestPath, type ParsedRequest, type Served, type ServiceRequest, type ServiceResponse } from './request';
import { loadLinkSigner, type LinkSigner } from '../media/link-signer';
import { memoryRateLimiter, quotaHeaders, rateKey, rateLimited } from './rate-limit';
import type { RateLimiter, RateQuota } from '../store/rate-limiter';
import { readingPrincipal } from './read-as';
import { createRouter, type Route } from './router';
import { formatVersion, latestVersion, parseAcceptVersion, since, type Version } from './versions';

export interface ServiceOptions {
  store: Store;
  /** The operation table to serve. */
  operations: readonly Operation<unknown>[];
  /** Injected clock; tests pass a fixed or stepping one. */
  clock?: () => Date;
  config?: Partial<ServiceConfig>;
  /** Where unexpected errors (bugs) are reported, with the request (its Authorization redacted); defaults to console.error. */
  onError?: (error: unknown, request: ServiceRequest) => void;
  /** Counts requests per caller in place of the store's shared limiter or the in-memory one built from `config.rateLimit`. */
  rateLimiter?: RateLimiter;
}

export interface Service {
  /**
   * Answers one request. `token` overrides the Authorization header: a string is presented as
   * the Bearer token, null means anonymous, undefined means "read the header".
   */
  handle(token: string | null | undefined, request: ServiceRequest): Promise<ServiceResponse>;
  readonly operations: readonly Operation<unknown>[];
  readonly config: ServiceConfig;
  readonly store: Store;
  readonly now: () => Date;
  /** The Error representation for a failure a transport detects itself (a body too large, say). */
  errorResponse(error: ApiError): ServiceResponse;
  /** Tells this process's workers that work was queued (workers elsewhere find it by polling). */
  readonly jobs: JobSignal;
  /** For a request whose body is a file: the most bytes to read, and the error for more. Undefined for every other request. */
  bodyLimit(method: string, url: string): { bytes: number; tooLarge: ApiError } | undefined;
  close(): Promise<void>;
}

/** A wake-up call for idle workers in this process. */
export interface JobSignal {
  notify(): void;
  /** Answers the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

function jobSignal(): JobSignal {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function createEngine(options: ServiceOptions): Service {
  const config: ServiceConfig = { ...defaultConfig, ...options.config };
  const now = options.clock ?? (() => new Date());
  const { store } = options;
  const route = createRouter(options.operations);
  const onError = options.onError ?? ((e: unknown) => console.error('reelbase: unexpected error', e));
  const jobs = jobSignal();
  let signer: Promise<LinkSigner> | undefined;
  // Once loaded, handed out without an await: a request should not wait a turn for it.
  let loadedSigner: LinkSigner | undefined;
  const links = (): Promise<LinkSigner> =>
    (signer ??= loadLinkSigner(store, now()).then(
      (loaded) => (loadedSigner = loaded),
      (e: unknown) => {
        signer = undefined;
        throw e;
      },
    ));
  const limiter = options.rateLimiter ?? (config.rateLimit ? (store.sharedRateLimiter?.(config.rateLimit) ?? memoryRateLimiter(config.rateLimit)) : null);

  const respond = (reply: Reply, version: Version, fields: string | undefined): ServiceResponse => {
    // No answer may be sniffed into another type (an uploaded file or JSON rendered as HTML).
    const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff', ...reply.headers };
    if (reply.file) return { status: reply.status, headers, file: reply.file };
    if (reply.html !== undefined) return { status: reply.status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers }, html: reply.html };
    if (reply.bytes) return { status: reply.status, headers: { 'Content-Type': reply.bytes.type, ...headers }, bytes: reply.bytes };
    if (reply.body === undefined) return { status: reply.status, headers };
    const typed = reply.kind && since(version, 'typedContentTypes');
    headers['Content-Type'] = typed
      ? `application/vnd.${config.vendor}.${reply.kind}+json;version=${formatVersion(version)}`
      : 'application/json';
    let body: unknown = reply.body;
    if (fields && reply.status < 400) {
      body = isListEnvelope(body) ? { ...body, data: body.data.map((item) => trimFields(item, fields)) } : trimFields(body, fields);
    }
    return { status: reply.status, headers, body, ...(reply.tasks ? { tasks: reply.tasks } : {}) };
  };

  const errorReply = (e: ApiError, shape?: Operation['errorShape']): Reply => ({
    status: e.status,
    kind: shape ? 'auth' : 'error',
    headers: { 'Cache-Control': 'private, no-store, no-cache', ...e.headers },
    body:
      shape === 'oauth'
        ? { error: e instanceof OAuthError ? e.oauthError : oauthErrorOf(e), error_description: e.developerMessage }
        : shape === 'legacy'
          ? { error: e.error }
          : {
              error: e.error,
              link: null,
              developer_message: e.developerMessage,
              error_code: e.code,
              ...(e.invalidParameters ? { invalid_parameters: e.invalidParameters } : {}),
            },
  });

  async function run(identity: Identity, request: ServiceRequest, version: Version, parsed: ParsedRequest, found: Route): Promise<Reply> {
    if (found.kind === 'none') {
      throw new ApiError(404, codes.notFound, 'The requested page could not be found.', `No operation answers ${parsed.method} ${parsed.path}.`);
    }
    if (found.kind === 'method') {
      throw new ApiError(405, codes.invalidInput, 'This method is not allowed here.', `${parsed.method} is not allowed on ${parsed.path}; allowed: ${found.allow.join(', ')}.`, undefined, {
        Allow: found.allow.join(', '),
      });
    }
    const { op } = found;
    const invalidCode = invalidCredentialsCode(op, version);
    const principal: Principal = principalOf(identity, invalidCode);
    const needsUser = op.auth === 'user' || (op.scope !== undefined && op.scope !== 'public') || found.viaMe;
    if (needsUser && !principal.user) {
      throw new ApiError(401, invalidCode, 'You must provide a valid authenticated access token.', `${op.method} ${op.paths[0]} needs an authenticated user.`, undefined, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    if (op.scope && !principal.scopes.has(op.scope)) {
      throw new ApiError(403, codes.notPermitted, "Your access token does not have the scope this needs.", `This operation needs the "${op.scope}" scope, which the access token lacks.`);
    }
    const reader = readingPrincipal(op, principal);
    const params = op.params ? readParams(op.params, inputOf(parsed)) : undefined;
    const linkSigner = loadedSigner ?? (await links());
    // One object written out: spreading a base into it (and optional fields into that) cost a read
    // of a cached video about 2% of its CPU. Absent transport parts stay undefined. A write's
    // transaction gets a copy with its own store.
    const ctx: Context<unknown> = {
      params,
      path: found.path,
      viaMe: found.viaMe,
      principal: reader,
      store,
      now,
      config,
      version,
      request: parsed,
      baseUrl: request.baseUrl ?? config.baseUrl,
      links: linkSigner,
      blobs: request.blobs,
      media: request.media,
      clientAddress: request.clientAddress || undefined,
      rawBody: op.rawBody ? rawBytes(request.body) : undefined,
    };
    // Reads use the store directly; every write runs in one transaction (all or nothing), which
    // also queues the removal of the files the change let go of.
    let removal: JobRecord | undefined;
    const reply =
      parsed.method === 'GET' || op.ownTransaction
        ? await op.handle(ctx)
        : await store.transaction(async (tx) => {
            const r = await op.handle({ ...ctx, store: tx });
            if (r.discard?.length) removal = await enqueueDelete(tx, r.discard, now());
            return r;
          });
    if (reply.discard?.length && !removal) removal = await store.transaction((tx) => enqueueDelete(tx, reply.discard!, now()));
    // Removed at once when the blob store answers; else the workers retry until it does.
    const removed = removal && request.blobs ? await deleteNow(store, request.blobs, removal, now) : !removal;
    if (reply.jobsQueued || !removed) jobs.notify();
    return reply;
  }

  return {
    operations: options.operations,
    jobs,
    config,
    store,
    now,
    close: () => store.close(),
    errorResponse: (e) => respond(errorReply(e), latestVersion, undefined),
    bodyLimit(method, url) {
      const found = route(method.toUpperCase(), requestPath(url));
      const raw = found.kind === 'found' ? found.op.rawBody : undefined;
      if (!raw) return undefined;
      const bytes = raw.maxBytes(config);
      return { bytes, tooLarge: raw.tooLarge(bytes) };
    },
    handle: answer,
  };

  async function answer(token: string | null | undefined, request: ServiceRequest): Promise<ServiceResponse> {
    let version: Version = latestVersion;
    let fields: string | undefined;
    let quota: RateQuota | undefined;
    let shape: Operation['errorShape'];
    let secretBody = false;
    const served: Served = { operation: null, route: null, user: null, app: null };
    const withQuota = (response: ServiceResponse): ServiceResponse => {
      if (quota) Object.assign(response.headers, quotaHeaders(quota));
      response.served = served;
      return response;
    };
    try {
      const found = route(request.method.toUpperCase(), requestPath(request.url));
      if (found.kind === 'found') {
        shape = found.op.errorShape;
        secretBody = found.op.secretBody === true;
        served.operation = found.op.id;
        served.route = found.template;
      }
      // The caller is identified and counted before the request is parsed: no malformed request escapes the limit.
      // An app authenticating itself (the grant endpoints) is the handler's to identify.
      const presented =
        found.kind === 'found' && found.op.credentials === 'client' ? undefined : token === null ? undefined : token ?? bearerToken(headerOf(request.headers, 'authorization'));
      const identifying = identify(store, presented, now());
      const identity = identifying instanceof Promise ? await identifying : identifying;
      if ('principal' in identity) {
        served.user = identity.principal.user?.id ?? null;
        served.app = identity.app ?? null;
      }
      if (limiter) {
        quota = await limiter.take(rateKey('refused' in identity ? null : identity.tokenHash, request.clientAddress), now());
        if (!quota.allowed) throw rateLimited(quota, now());
      }
      const parsed = parseRequest(request, found.kind === 'found' && found.op.rawBody !== undefined);
      version = parseAcceptVersion(parsed.headers.accept);
      fields = parsed.query.fields;
      return withQuota(respond(await run(identity, request, version, parsed, found), version, fields));
    } catch (e) {
      if (e instanceof ApiError) return withQuota(respond(errorReply(e, shape), version, undefined));
      if (e instanceof BlobUnavailableError) return withQuota(respond(errorReply(blobsUnavailable(), shape), version, undefined));
      if (e instanceof StoreConflictError) {
        return withQuota(respond(errorReply(new ApiError(400, codes.invalidInput, 'That already exists.', e.message), shape), version, undefined));
      }
      onError(e, redacted(request, secretBody));
      return withQuota(
        respond(
          errorReply(new ApiError(500, codes.unexpected, 'Something strange occurred. Please try again.', 'An unexpected error occurred.'), shape),
          version,
          undefined,
        ),
      );
    }
  }
}

/** The RFC 6749 §5.2 word for an error the engine raised on an OAuth operation (bad input, a limit, a bug). */
const oauthErrorOf = (e: ApiError): string =>
  e.status === 401 ? 'invalid_client' : e.status === 429 ? 'slow_down' : e.status >= 500 ? 'server_error' : 'invalid_request';

/** The request as error reports may show it: the access token never leaves the service. */
function redacted(request: ServiceRequest, secretBody = false): ServiceRequest {
  const shown = secretBody && request.body !== undefined ? { ...request, body: '[redacted]' } : request;
  if (!headerOf(request.headers, 'authorization')) return shown;
  return { ...shown, headers: { ...request.headers, authorization: '[redacted]' } };
}

/** GET reads the query; other methods read the body, with query parameters as a fallback. */
function inputOf(req: ParsedRequest): unknown {
  const { fields: _fields, ...query } = req.query;
  if (req.method === 'GET') return query;
  if (req.bodyKind === 'none') return query;
  if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) return { ...query, ...(req.body as object) };
  return req.body;
}

const rawBytes = (body: ServiceRequest['body']): Uint8Array => (body === undefined ? new Uint8Array(0) : typeof body === 'string' ? Buffer.from(body) : body);
