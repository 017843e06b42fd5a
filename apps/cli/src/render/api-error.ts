import type { TransportResponse } from '@reelbase/http';

/** The Error representation, as far as a failed answer carries one. */
interface ErrorBody {
  error?: string;
  error_code?: number;
  developer_message?: string;
  invalid_parameters?: { field?: string; developer_message?: string; error?: string }[];
}

/**
 * A non-2xx answer as one line: `error 2204 (HTTP 400): <error> — <what was wrong>`, naming each
 * invalid parameter when the API lists them; `error: HTTP 502 <text>` when the body is no Error.
 * `brief` (a status line) leaves out the general sentence when there is a specific one.
 */
export function describeApiError(answer: TransportResponse, { brief = false } = {}): string {
  const body = answer.body as ErrorBody | string | undefined;
  if (!body || typeof body !== 'object' || body.error_code === undefined) {
    return `error: HTTP ${answer.status}${typeof body === 'string' && body ? ` ${body.trim()}` : ''}`;
  }
  const fields = (body.invalid_parameters ?? []).map((p) => `${p.field}: ${p.developer_message ?? p.error}`);
  const detail = fields.length ? fields.join('; ') : body.developer_message;
  const head = `error ${body.error_code} (HTTP ${answer.status}): `;
  if (brief && detail) return `${head}${detail}`;
  return `${head}${body.error}${detail ? ` — ${detail}` : ''}`;
}
