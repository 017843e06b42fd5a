/** A mistake in how the command was called (bad flag value, unknown store scheme…): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure already reported to the user (an API error body on stderr, say): exit code 1, nothing more to print. */
export class ReportedFailure extends Error {
  override readonly name = 'ReportedFailure';
  constructor(readonly exitCode = 1) {
    super('failure already reported');
  }
}

/** Exit codes: 0 ok, 1 API or runtime error, 2 usage error. */
export const exitCodes = { ok: 0, failure: 1, usage: 2 } as const;
