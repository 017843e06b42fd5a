import type { Operation } from '../engine/operation';
import type { AnyStruct } from '../engine/params';
import { isOptional, objectFields, toJsonSchema, type JsonSchema } from './struct-walk';

/** What the document needs besides the table. */
export interface OpenApiOptions {
  /** Vendor segment of the typed content types (`application/vnd.<vendor>.<kind>+json`). */
  vendor: string;
  /** The API version the document describes, e.g. `3.4`. */
  apiVersion: string;
  /** Server URL to advertise; omitted when unknown. */
  serverUrl?: string;
}

type Json = Record<string, unknown>;

const errorSchema: JsonSchema = {
  type: 'object',
  properties: {
    error: { type: 'string' },
    link: { type: ['string', 'null'] },
    developer_message: { type: 'string' },
    error_code: { type: 'integer' },
    invalid_parameters: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, error_code: { type: 'integer' }, error: { type: 'string' }, developer_message: { type: 'string' } },
      },
    },
  },
  required: ['error', 'developer_message', 'error_code'],
};

const listSchema: JsonSchema = {
  type: 'object',
  properties: {
    total: { type: 'integer' },
    page: { type: 'integer' },
    per_page: { type: 'integer' },
    paging: {
      type: 'object',
      properties: Object.fromEntries(['next', 'previous', 'first', 'last'].map((k) => [k, { type: ['string', 'null'] }])),
    },
    data: { type: 'array', items: { type: 'object' } },
  },
  required: ['total', 'page', 'per_page', 'paging', 'data'],
};

/** The hosted API's shapes of the OAuth endpoints: `auth`, `auth-error` (RFC 6749 §5.2) and `legacy-error`. */
const authSchemas: Record<string, JsonSchema> = {
  Auth: {
    type: 'object',
    properties: {
      access_token: { type: 'string' },
      token_type: { type: 'string', enum: ['bearer'] },
      scope: { type: 'string', description: 'Space-separated scopes.' },
      app: { type: ['object', 'null'], properties: { name: { type: 'string' }, uri: { type: 'string' } }, description: 'Null for a personal token.' },
      user: { type: 'object', description: "The User, for a user's token." },
      expires_on: { type: 'string', description: 'Unix seconds, when the token expires (REELBASE_TOKEN_TTL).' },
    },
    required: ['access_token', 'token_type', 'scope', 'app'],
  },
  AuthError: { type: 'object', properties: { error: { type: 'string' }, error_description: { type: 'string' } }, required: ['error', 'error_description'] },
  LegacyError: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
};

const fileContent: Json = { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } };
const htmlContent: Json = { 'text/html': { schema: { type: 'string' } } };

/**
 * What a handler answers, read from its source: the reply helpers it calls (`ok`, `created`,
 * `noContent`…) and the representation kind passed to them. Handlers that delegate to a domain
 * function reveal nothing this way and fall back to the method's usual status.
 */
function replies(op: Operation<unknown>): { statuses: Set<string>; kinds: Set<string>; list: boolean; raw?: Json } {
  const src = op.handle.toString();
  // Replies that carry bytes or a page instead of JSON (the file and player endpoints).
  // The sign-in pages (domain/identity/pages.ts) are HTML too, and their forms answer redirects.
  const raw = /\bfile\s*:\s*\{/.test(src) ? fileContent : /\bhtml\s*:|\b[a-z]\w*Page\(/.test(src) ? htmlContent : undefined;
  if (raw) {
    const statuses = new Set(['200']);
    if (/\bredirect\(\s*302|\bunusable\(/.test(src)) statuses.add('302');
    if (/\bbackToAuthorize\(/.test(src)) statuses.add('303');
    return { statuses, kinds: new Set(), list: false, raw };
  }
  const statuses = new Set<string>();
  const kinds = new Set<string>();
  const status: Record<string, string[]> = { ok: ['200'], listReply: ['200'], created: ['201'], accepted: ['202'], noContent: ['204'], updated: ['200', '204'], authReply: ['200'] };
  for (const m of src.matchAll(/\b(ok|listReply|created|accepted|noContent|updated|authReply)\(/g)) for (const s of status[m[1]]) statuses.add(s);
  for (const m of src.matchAll(/\b(?:ok|listReply|created|accepted|updated)\([^;]*?,\s*["']([a-z][a-z_]*)["']\)/g)) kinds.add(m[1]);
  if (!statuses.size) statuses.add(op.method === 'POST' ? '201' : op.method === 'DELETE' || op.method === 'PUT' ? '204' : '200');
  const params = op.params ? objectFields(op.params as AnyStruct) : undefined;
  const list = /\blistReply\(/.test(src) || (op.method === 'GET' && !!params?.some(([k]) => k === 'per_page'));
  return { statuses, kinds, list };
}

const mediaTypes = (vendor: string, kinds: Iterable<string>, schema: JsonSchema): Json => {
  const content: Json = {};
  for (const kind of kinds) content[`application/vnd.${vendor}.${kind}+json`] = { schema };
  content['application/json'] = { schema };
  return content;
};

const pathVariables = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

function security(op: Operation<unknown>, path: string): Json[] {
  if (op.credentials === 'client') return [{ basic: [] }];
  // Verify and revoke are about the token presented: there is nothing to do without one.
  if (op.errorShape === 'legacy') return [{ bearer: [] }];
  const viaMe = path === '/me' || path.startsWith('/me/');
  const required = op.auth === 'user' || (op.scope !== undefined && op.scope !== 'public') || viaMe;
  const bearer = { bearer: op.scope ? [op.scope] : [] };
  return required ? [bearer] : [{}, bearer];
}

/**
 * The kind of a handler that delegates (so its source names none): the resource its id names
 * just before the verb (`videos.comments.list` → `comment`), when some other handler answers
 * that kind.
 */
function guessKind(op: Operation<unknown>, known: ReadonlySet<string>): string | undefined {
  const segments = op.id.split('.');
  const resource = segments[segments.length - 2]?.replace(/s$/, '');
  return resource && known.has(resource) ? resource : undefined;
}

function describeOperation(op: Operation<unknown>, path: string, operationId: string, options: OpenApiOptions, known: ReadonlySet<string>): Json {
  const struct = op.params as AnyStruct | undefined;
  const parameters: Json[] = pathVariables(path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  let requestBody: Json | undefined;
  if (struct && op.method === 'GET') {
    for (const [name, field] of objectFields(struct) ?? []) {
      parameters.push({ name, in: 'query', required: !isOptional(field), schema: toJsonSchema(field) });
    }
  } else if (struct) {
    const schema = toJsonSchema(struct);
    requestBody = {
      required: Array.isArray(schema.required) && schema.required.length > 0,
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
    };
  }
  parameters.push({ name: 'fields', in: 'query', required: false, description: 'Comma-separated fields to keep in the response, e.g. `uri,name,privacy.view`.', schema: { type: 'string' } });
  const { statuses, kinds, list, raw } = replies(op);
  const guessed = kinds.size ? undefined : guessKind(op, known);
  if (guessed) kinds.add(guessed);
  const responses: Json = {};
  for (const status of [...statuses].sort()) {
    responses[status] = raw
      ? status.startsWith('30')
        ? { description: 'A redirect (Location)' }
        : { description: 'Success', content: raw }
      : status === '204'
        ? { description: 'No content' }
        : { description: list ? 'A page of results' : 'Success', content: mediaTypes(options.vendor, kinds, list ? { $ref: '#/components/schemas/List' } : { type: 'object' }) };
  }
  if (op.errorShape) {
    if (responses['200']) responses['200'] = { description: 'Success', content: mediaTypes(options.vendor, ['auth'], { $ref: '#/components/schemas/Auth' }) };
    const shape = op.errorShape === 'oauth' ? 'AuthError' : 'LegacyError';
    responses.default = { description: 'An error', content: mediaTypes(options.vendor, ['auth'], { $ref: `#/components/schemas/${shape}` }) };
  } else responses.default = { description: 'An error', content: mediaTypes(options.vendor, ['error'], { $ref: '#/components/schemas/Error' }) };
  return {
    operationId,
    summary: op.summary,
    ...(operationId === op.id ? {} : { description: `Another path of \`${op.id}\`.` }),
    'x-reelbase-operation': op.id,
    tags: [op.id.split('.')[0]],
    security: security(op, path),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of an operation table: one path item per path, one operation per
 * method. An operation's first path carries `operationId` = the table id; its other paths
 * (`/me/...` twins) get `<id>.alt<n>` since operation ids must be unique, and all carry
 * `x-reelbase-operation` = the table id.
 */
export function renderOpenApi(operations: readonly Operation<unknown>[], options: OpenApiOptions): Json {
  const paths: Record<string, Json> = {};
  const known = new Set(operations.flatMap((op) => [...replies(op).kinds]));
  for (const op of operations) {
    op.paths.forEach((path, i) => {
      const operationId = i === 0 ? op.id : `${op.id}.alt${i}`;
      (paths[path] ??= {})[op.method.toLowerCase()] = describeOperation(op, path, operationId, options, known);
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'reelbase API',
      version: options.apiVersion,
      description: `Generated from the operation table. Send \`Accept: application/vnd.${options.vendor}.*+json;version=X.Y\` to select a version; typed content types carry \`;version=X.Y\`.`,
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An access token; the operation lists the scope it needs.' },
        basic: {
          type: 'http',
          scheme: 'basic',
          description: "An app's client_id:client_secret, on the OAuth grant endpoints only; a bearer token there is refused with 401 invalid_client.",
        },
      },
      schemas: { Error: errorSchema, List: listSchema, ...authSchemas },
    },
  };
}
