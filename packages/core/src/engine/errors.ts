/** One invalid field of a request, as listed in `invalid_parameters`. */
export interface InvalidParameter {
  field: string;
  error_code: number;
  error: string;
  developer_message: string;
}

/**
 * An error answer. Operations throw it; the service turns it into the Error representation.
 * `error` is for end users, `developerMessage` says exactly what was wrong.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly error: string,
    readonly developerMessage: string = error,
    readonly invalidParameters?: InvalidParameter[],
    readonly headers: Record<string, string> = {},
  ) {
    super(developerMessage);
    this.name = 'ApiError';
  }
}

/**
 * An OAuth error (RFC 6749 §5.2): `oauthError` is its `error` word (`invalid_grant`…). Operations
 * whose `errorShape` is `oauth` answer it as `{error, error_description}`.
 */
export class OAuthError extends ApiError {
  constructor(
    status: number,
    readonly oauthError: string,
    description: string,
    headers: Record<string, string> = {},
  ) {
    super(status, status === 401 ? codes.invalidCredentials : codes.invalidInput, description, description, undefined, headers);
    this.name = 'OAuthError';
  }
}

/** Codes used where SPEC.md names none (CONVENTIONS.md, Errors). */
export const codes = {
  invalidInput: 2204,
  badBody: 2205,
  badVersion: 2206,
  notPermitted: 3200,
  unexpected: 4005,
  notFound: 5000,
  invalidCredentials: 8003,
} as const;

export const notFound = (what: string, code: number = codes.notFound): ApiError =>
  new ApiError(404, code, `The requested ${what} couldn't be found.`, `The ${what} does not exist or is not visible to you.`);

export const forbidden = (developerMessage: string, code: number = codes.notPermitted): ApiError =>
  new ApiError(403, code, "You don't have permission to do this.", developerMessage);

export const badRequest = (developerMessage: string, code: number = codes.invalidInput, field?: string): ApiError =>
  new ApiError(
    400,
    code,
    'Something about your request was invalid.',
    developerMessage,
    field ? [{ field, error_code: code, error: 'Invalid parameter.', developer_message: developerMessage }] : undefined,
  );

/** A 400 for one named field. */
export const invalidField = (field: string, developerMessage: string, code: number = codes.invalidInput): ApiError =>
  badRequest(`${field}: ${developerMessage}`, code, field);

export const unauthorized = (code: number, developerMessage: string): ApiError =>
  new ApiError(401, code, 'You must provide a valid authenticated access token.', developerMessage, undefined, {
    'WWW-Authenticate': 'Bearer error="invalid_token"',
  });

/** The answer to a request the blob store could not serve now: nothing of it was kept, retry later. */
export const blobsUnavailable = (): ApiError =>
  new ApiError(
    503,
    codes.unexpected,
    'The file storage is not available right now. Please try again shortly.',
    `The blob store could not be reached; nothing of this request was kept. Retry in ${blobsRetryAfterSeconds} seconds.`,
    undefined,
    { 'Retry-After': String(blobsRetryAfterSeconds) },
  );

const blobsRetryAfterSeconds = 10;
