import type { IncomingMessage } from 'node:http';
import type { Served } from '@reelbase/core';

/** What the observer learns of a request while it is answered: its id, and which operation answered it. */
export interface RequestTrace {
  id: string;
  served?: Served;
}

const traces = new WeakMap<IncomingMessage, RequestTrace>();

export const startTrace = (req: IncomingMessage, id: string): RequestTrace => {
  const trace: RequestTrace = { id };
  traces.set(req, trace);
  return trace;
};

/** Records which operation answered `req` (for its log line and metrics), when it is observed. */
export const noteServed = (req: IncomingMessage, served: Served | undefined): void => {
  const trace = traces.get(req);
  if (trace && served) trace.served = served;
};
