import type { Store } from '../store/store';
import { StoreConflictError } from '../store/store';
import { anonymous, authenticate, bearerToken, type Principal } from './auth';
import { defaultConfig, type ServiceConfig } from './config';
import { ApiError, codes } from './errors';
import { isListEnvelope, trimFields } from './fields';
import { invalidCredentialsCode, type Context, type Operation, type Reply } from './operation';
import { readParams } from './params';
import { parseRequest, type ParsedRequest, type ServiceRequest, type ServiceResponse } from './request';
import { createRouter } from './router';
import { formatVersion, latestVersion, parseAcceptVersion, since, type Version } from './versions';

export interface ServiceOptions {
  store: Store;
  /** The operation table to serve. */
  operations: readonly Operation<unknown>[];
  /** Injected clock; tests pass a fixed or stepping one. */
  clock?: () => Date;
  config?: Partial<ServiceConfig>;
  /** Where unexpected errors (bugs) are reported; defaults to console.error. */
  onError?: (error: unknown, request: ServiceRequest) => void;
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
  close(): Promise<void>;
}

export function createEngine(options: ServiceOptions): Service {
  const config: ServiceConfig = { ...defaultConfig, ...options.config };
  const now = options.clock ?? (() => new Date());
  const { store } = options;
  const route = createRouter(options.operations);
  const onError = options.onError ?? ((e: unknown) => console.error('reelbase: unexpected error', e));

  const respond = (reply: Reply, version: Version, fields: string | undefined): ServiceResponse => {
    const headers: Record<string, string> = { ...reply.headers };
    if (reply.file) return { status: reply.status, headers, file: reply.file };
    if (reply.html !== undefined) return { status: reply.status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers }, html: reply.html };
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

  const errorReply = (e: ApiError): Reply => ({
    status: e.status,
    kind: 'error',
    headers: { 'Cache-Control': 'private, no-store, no-cache', ...e.headers },
    body: {
      error: e.error,
      link: null,
      developer_message: e.developerMessage,
      error_code: e.code,
      ...(e.invalidParameters ? { invalid_parameters: e.invalidParameters } : {}),
    },
  });

  async function run(token: string | null | undefined, request: ServiceRequest, version: Version, parsed: ParsedRequest): Promise<Reply> {
    const found = route(parsed.method, parsed.path);
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
    const presented = token === null ? undefined : token ?? bearerToken(parsed.headers.authorization);
    const principal: Principal = presented === undefined ? anonymous : await authenticate(store, presented, invalidCode);
    const needsUser = op.auth === 'user' || (op.scope !== undefined && op.scope !== 'public') || found.viaMe;
    if (needsUser && !principal.user) {
      throw new ApiError(401, invalidCode, 'You must provide a valid authenticated access token.', `${op.method} ${op.paths[0]} needs an authenticated user.`, undefined, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    if (op.scope && !principal.scopes.has(op.scope)) {
      throw new ApiError(403, codes.notPermitted, "Your access token does not have the scope this needs.", `This operation needs the "${op.scope}" scope, which the access token lacks.`);
    }
    const params = op.params ? readParams(op.params, inputOf(parsed)) : undefined;
    const base: Omit<Context<unknown>, 'store'> = {
      params,
      path: found.path,
      viaMe: found.viaMe,
      principal,
      now,
      config,
      version,
      request: parsed,
      baseUrl: request.baseUrl ?? config.baseUrl,
      ...(request.blobs ? { blobs: request.blobs } : {}),
    };
    // Reads use the store directly; every write runs in one transaction (all or nothing).
    return parsed.method === 'GET' ? op.handle({ ...base, store }) : store.transaction((tx) => op.handle({ ...base, store: tx }));
  }

  return {
    operations: options.operations,
    config,
    store,
    now,
    close: () => store.close(),
    errorResponse: (e) => respond(errorReply(e), latestVersion, undefined),
    async handle(token, request) {
      let version: Version = latestVersion;
      let fields: string | undefined;
      try {
        const parsed = parseRequest(request);
        version = parseAcceptVersion(parsed.headers.accept);
        fields = parsed.query.fields;
        return respond(await run(token, request, version, parsed), version, fields);
      } catch (e) {
        if (e instanceof ApiError) return respond(errorReply(e), version, undefined);
        if (e instanceof StoreConflictError) {
          return respond(errorReply(new ApiError(400, codes.invalidInput, 'That already exists.', e.message)), version, undefined);
        }
        onError(e, request);
        return respond(
          errorReply(new ApiError(500, codes.unexpected, 'Something strange occurred. Please try again.', 'An unexpected error occurred.')),
          version,
          undefined,
        );
      }
    },
  };
}

/** GET reads the query; other methods read the body, with query parameters as a fallback. */
function inputOf(req: ParsedRequest): unknown {
  const { fields: _fields, ...query } = req.query;
  if (req.method === 'GET') return query;
  if (req.bodyKind === 'none') return query;
  if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) return { ...query, ...(req.body as object) };
  return req.body;
}
