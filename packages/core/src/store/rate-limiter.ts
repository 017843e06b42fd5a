/** How many requests a caller may make per window (ServiceConfig.rateLimit). */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/** A caller's allowance in the current window, once the request at hand is counted. */
export interface RateQuota {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the window (0 once the limit is reached). */
  remaining: number;
  /** When the window ends and the allowance is whole again. */
  reset: Date;
  /** False when this request is beyond the limit. */
  allowed: boolean;
}

/**
 * Counts requests per caller key. The service calls `take` once per request, before anything
 * else; the in-memory limiter (engine/rate-limit.ts) is the default, and a limiter shared by several servers
 * implements the same call over their shared database.
 */
export interface RateLimiter {
  take(key: string, now: Date): RateQuota | Promise<RateQuota>;
}
