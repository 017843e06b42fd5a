import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, openUpload, type OpenUpload, type Service, type ServiceResponse } from '@reelbase/core';

export type Write = (res: ServerResponse, answer: ServiceResponse) => void;

/** The upload id at the end of an upload link (`/uploads/tus/<id>`); '' when it does not decode. */
export function linkId(req: IncomingMessage, prefix: string): string {
  try {
    return decodeURIComponent((req.url ?? '').split('?')[0].slice(prefix.length + 1));
  } catch {
    return '';
  }
}

/** Core's view of the upload behind a link of `approach`, or the ApiError to answer with. */
export async function openLink(service: Service, id: string, approach: string): Promise<OpenUpload | ApiError> {
  try {
    return await openUpload(service, id, approach);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
}

/**
 * Answers an upload link request with the Error representation. The rest of the body is drained
 * so the client reads the answer instead of a reset; `headers` adds protocol headers (tus).
 */
export function refuse(service: Service, write: Write, req: IncomingMessage, res: ServerResponse, e: ApiError, headers: Record<string, string> = { Connection: 'close' }): void {
  req.resume();
  const answer = service.errorResponse(e);
  write(res, { ...answer, headers: { ...answer.headers, ...headers } });
}
