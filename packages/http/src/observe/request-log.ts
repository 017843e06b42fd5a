import type { IncomingMessage, ServerResponse } from 'node:http';
import { withRequestId } from '@reelbase/core';
import { clientAddress } from '../request-listener';
import { postPath, streamPath } from '../post-upload';
import { tusPath } from '../tus';
import { healthPath, readyPath } from './health';
import { loggedPath } from './logged-path';
import { lineWriter, type Logger } from './logger';
import type { Metrics } from './metrics';
import { requestIdOf } from './request-id';
import { startTrace } from './trace';

export type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface ObserveOptions {
  logger?: Logger;
  metrics?: Metrics;
  trustProxy?: boolean;
}

/** The label of requests no operation or transport route answered: one value, whatever the path. */
const unmatched = 'unmatched';

/** Requests answered by the transport itself, not an operation: their own fixed names. */
const transportRoutes: { prefix: string; operation: string; route: string; approach?: string }[] = [
  { prefix: `${tusPath}/`, operation: 'uploads.tus', route: `${tusPath}/{upload}`, approach: 'tus' },
  { prefix: `${postPath}/`, operation: 'uploads.post', route: `${postPath}/{upload}`, approach: 'post' },
  { prefix: `${streamPath}/`, operation: 'uploads.stream', route: `${streamPath}/{upload}`, approach: 'streaming' },
];
const exact: Record<string, string> = { [healthPath]: 'health', [readyPath]: 'health.ready' };

/**
 * One log line and one metrics observation per request, from one place: `listener` wrapped so
 * that each request gets an id (X-Request-Id, echoed on the answer and carried into the jobs it
 * queues), and, when its answer is sent, a line with what answered it (the operation table's id
 * and path template, never the raw path as a label), how long it took and for whom.
 */
export function observeRequests(listener: Listener, o: ObserveOptions): Listener {
  const { logger, metrics } = o;
  const writeLine = logger && lineWriter(logger);
  return (req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const id = requestIdOf(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', id);
    const trace = startTrace(req, id);
    metrics?.requests.started();
    res.once('close', () => {
      const ms = performance.now() - started;
      const url = req.url ?? '/';
      const path = url.split('?')[0];
      const transport = trace.served?.operation ? undefined : transportRoutes.find((r) => path.startsWith(r.prefix));
      const operation = trace.served?.operation ?? transport?.operation ?? exact[path] ?? null;
      const route = trace.served?.route ?? transport?.route ?? (exact[path] ? path : null);
      const status = res.headersSent ? res.statusCode : 0;
      if (metrics) {
        metrics.requests.answered(operation ?? unmatched, method, status, ms / 1000);
        if (status === 429) metrics.rateLimited.inc();
        if (operation === 'oauth.sign_in' && status === 400) metrics.signInFailures.inc();
        if (transport?.approach && status < 300) metrics.uploadBytes.inc({ approach: transport.approach }, uploaded(req, res));
      }
      // Probes come every few seconds from every balancer: they are there at debug level.
      const level = exact[path] ? 'debug' : status >= 500 || status === 0 ? 'error' : 'info';
      // A line nobody reads (REELBASE_LOG_LEVEL silent or above its level) is not built.
      if (!writeLine || !logger?.isLevelEnabled(level)) return;
      const line = {
        req_id: id,
        method,
        route,
        path: loggedPath(url, route),
        status,
        ms: Math.round(ms * 10) / 10,
        bytes: Number(res.getHeader('content-length') ?? 0),
        operation,
        user: trace.served?.user ?? null,
        app: trace.served?.app ?? null,
        ip: clientAddress(req, o.trustProxy ?? false) ?? null,
        msg: 'request',
      };
      writeLine(level, line);
    });
    // GET and HEAD write nothing, so queue no job to carry the id into: they run outside the
    // request scope, whose promise hooks, while any scope runs, cost every promise of the process.
    return method === 'GET' || method === 'HEAD' ? listener(req, res) : withRequestId(id, () => listener(req, res));
  };
}

/** The bytes an upload request added: tus says by how far the offset moved; the others send the file whole. */
function uploaded(req: IncomingMessage, res: ServerResponse): number {
  if (req.method === 'PATCH') {
    const moved = Number(res.getHeader('upload-offset')) - Number(req.headers['upload-offset']);
    return Number.isFinite(moved) && moved > 0 ? moved : 0;
  }
  if (req.method !== 'POST' && req.method !== 'PUT') return 0;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0 ? length : 0;
}
