import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { isPublicAddress } from './public-address';

/**
 * Why an outbound request got no answer: refused by the policy, unresolvable, refused or dropped
 * by the peer, timed out. One message for all, so that a user cannot tell a refused address from
 * a closed port (no port scanning through the server).
 */
export class OutboundError extends Error {
  constructor() {
    super('the address could not be reached');
  }
}

/** The refusal the connection hooks raise; callers only ever see an `OutboundError`. */
const refused = (): NodeJS.ErrnoException => Object.assign(new Error('a non-public address'), { code: 'ERR_OUTBOUND_REFUSED' });

/**
 * A lookup that resolves every address of the name and refuses them all when any is not public
 * (the answer is the attacker's to order, so no "first public one"), then answers in the shape
 * the caller asked for (`all` or one address).
 */
function publicLookup(resolve: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, answer) => {
      if (err) return callback(err, '');
      const addresses = answer as LookupAddress[];
      if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) return callback(refused(), '');
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * The agent's connections check their address where it is used: a name through the lookup hook
 * (so the address checked is the address connected to, and DNS rebinding has no second answer
 * to give), an address literal (which Node connects to without a lookup) here. Every connection
 * the agent opens is checked, so a redirect hop followed through it would be too.
 */
function guard<A extends HttpAgent>(agent: A, resolve: LookupFunction): A {
  const connect = agent.createConnection.bind(agent);
  const lookup = publicLookup(resolve);
  agent.createConnection = (options, callback) => {
    const host = String(options.host ?? options.hostname ?? '').replace(/^\[|\]$/g, '');
    if (isIP(host) && !isPublicAddress(host)) {
      process.nextTick(() => callback?.(refused(), undefined as unknown as Duplex));
      return undefined;
    }
    return connect({ ...options, lookup }, callback);
  };
  return agent;
}

export interface OutboundOptions {
  /** The operator's opt-in to loopback and private addresses (tests, closed networks). */
  allowPrivate: boolean;
  /** Resolves names (tests inject one); default the system's `dns.lookup`. */
  lookup?: LookupFunction | null;
}

export interface OutboundRequest {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string;
  signal: AbortSignal;
}

/**
 * The one way reelbase reaches a URL a user gave it (pull uploads, webhooks): http and https only,
 * through agents that refuse non-public addresses at connect time (unless `allowPrivate`), no
 * redirects followed. Answers the response, whatever its status; any failure to get one is an
 * `OutboundError`.
 */
export class Outbound {
  readonly #http: HttpAgent;
  readonly #https: HttpsAgent;

  constructor(o: OutboundOptions) {
    const resolve = o.lookup ?? (systemLookup as LookupFunction);
    this.#http = o.allowPrivate ? new HttpAgent({ lookup: resolve }) : guard(new HttpAgent(), resolve);
    this.#https = o.allowPrivate ? new HttpsAgent({ lookup: resolve }) : guard(new HttpsAgent(), resolve);
  }

  request(url: URL, o: OutboundRequest): Promise<IncomingMessage> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundError());
    const https = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(url, { method: o.method ?? 'GET', headers: o.headers, agent: https ? this.#https : this.#http, signal: o.signal });
      req.once('response', resolve);
      // Once answered, a failure mid-body is the response stream's to report.
      req.on('error', () => reject(new OutboundError()));
      req.end(o.body);
    });
  }
}
