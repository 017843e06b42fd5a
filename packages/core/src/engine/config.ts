import type { LookupFunction } from 'node:net';
import type { JobRetention } from '../jobs/prune-jobs';

/** Service settings; every field has a default so `createService({ store })` just works. */
export interface ServiceConfig {
  /** Origin for absolute links when the transport does not give one. */
  baseUrl: string;
  /** The vendor word of typed content types: `application/vnd.<vendor>.video+json`. */
  vendor: string;
  /** `GET /users` answers 503 when false. */
  userSearch: boolean;
  /** Plan given to users created without one. */
  defaultAccount: string;
  /** Comments containing any of these words (case-insensitive) are refused as spam (403/3301). */
  spamWords: string[];
  /** Per-user follow rate limit: at most `max` new follows in any `windowSeconds` (beyond: 429/9006). */
  followRateLimit: { max: number; windowSeconds: number };
  /** Largest video file accepted by any upload approach, in bytes (beyond: 413). */
  uploadMaxBytes: number;
  /** Bytes each user's uploads may occupy in all (`upload_quota`; beyond: 403/4101). */
  uploadQuotaBytes: number;
  /** How long an upload link (tus, post) stays usable after the video or version is created. */
  uploadLinkTtlSeconds: number;
  /** Pull uploads may fetch loopback and private addresses (tests, closed networks). */
  pullAllowPrivate: boolean;
  /** Webhooks may deliver to loopback and private addresses (tests, closed networks). */
  webhookAllowPrivate: boolean;
  /** Resolves the names of pull links and webhook URLs; null: the system's (`dns.lookup`). Tests inject one. */
  outboundLookup: LookupFunction | null;
  /** Pull uploads give up after this many milliseconds. */
  pullTimeoutMs: number;
  /**
   * Requests per caller (its token, or its address when anonymous) in fixed windows of
   * `windowSeconds`; beyond: 429/9000 with Retry-After. null switches rate limiting off.
   */
  rateLimit: { max: number; windowSeconds: number } | null;
  /** Largest image accepted by a picture, logo or poster link (beyond: 400 naming the file). */
  imageMaxBytes: number;
  /** Largest text-track file accepted by a text track's link. */
  texttrackMaxBytes: number;
  /** How long a token made by an OAuth grant works, in seconds; null: until revoked (as the hosted API). */
  tokenTtlSeconds: number | null;
  /** Anybody may make an account on the sign-in page (REELBASE_SIGNUP=open); otherwise only the operator makes them. */
  signUp: boolean;
  /**
   * Failed sign-ins allowed per account and per client address within `windowSeconds`; beyond:
   * 429 with Retry-After. Counted in the store, so every server on one database shares the count.
   */
  signInLimit: { perAccount: number; perAddress: number; windowSeconds: number };
  /**
   * Sign-ups (when open) per client address within `windowSeconds`: every submission counts
   * against `attemptsPerAddress` whatever it answers, and each account made against
   * `accountsPerAddress` (REELBASE_SIGNUP_PER_HOUR); beyond: 429 with Retry-After.
   */
  signUpLimit: { attemptsPerAddress: number; accountsPerAddress: number; windowSeconds: number };
  /** Wrong video or album passwords per video (or album) and client address within `windowSeconds`; beyond: 429/9000 with Retry-After. */
  passwordGuessLimit: { perAddress: number; windowSeconds: number };
  /** Uploads moving bytes at once (tus PATCH, post, streaming PUT, pull); beyond: 503 with Retry-After. null: no cap. */
  maxConcurrentUploads: number | null;
  /** How long workers keep finished jobs before deleting them: `done` ones 7 days, `failed` ones (with their error) 30. */
  jobRetention: JobRetention;
  /** The country (ISO 3166-1 alpha-2) of a client address for analytics (REELBASE_GEOIP_DB); null: none is known. */
  countryOf: ((address: string) => string | null) | null;
}

export const defaultConfig: ServiceConfig = {
  baseUrl: 'http://localhost:8080',
  vendor: 'reelbase',
  userSearch: true,
  defaultAccount: 'pro',
  spamWords: [],
  followRateLimit: { max: 1000, windowSeconds: 3600 },
  uploadMaxBytes: 5 * 1024 ** 3,
  uploadQuotaBytes: 500 * 1024 ** 3,
  uploadLinkTtlSeconds: 24 * 3600,
  pullAllowPrivate: false,
  webhookAllowPrivate: false,
  outboundLookup: null,
  pullTimeoutMs: 60_000,
  rateLimit: { max: 6000, windowSeconds: 600 },
  maxConcurrentUploads: 20,
  tokenTtlSeconds: null,
  signUp: false,
  signInLimit: { perAccount: 5, perAddress: 50, windowSeconds: 900 },
  signUpLimit: { attemptsPerAddress: 10, accountsPerAddress: 3, windowSeconds: 3600 },
  passwordGuessLimit: { perAddress: 10, windowSeconds: 900 },
  imageMaxBytes: 10 * 1024 * 1024,
  texttrackMaxBytes: 5 * 1024 * 1024,
  jobRetention: { doneSeconds: 7 * 86400, failedSeconds: 30 * 86400 },
  countryOf: null,
};
