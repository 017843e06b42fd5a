import { envOf, fromEnv } from './context';
import { UsageError } from './errors';
import { line, type CliIo } from './io';

/**
 * The Node.js lines reelbase runs on, and when each stops getting security fixes (the Node.js
 * release schedule, github.com/nodejs/Release). reelbase supports 20.6 and newer; 22 and 24 are
 * the LTS lines to run it on.
 */
export const nodeEndOfLife: Readonly<Record<number, string>> = {
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

/**
 * reelbase's one line about the Node.js it runs on (`version` as `process.version` gives it), when
 * that line is past its end of life on `today`; null while it is supported or not in the table.
 */
export function nodeSupportNotice(version: string, today: Date): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  const end = nodeEndOfLife[major];
  if (!end || today.getTime() < Date.parse(`${end}T00:00:00Z`)) return null;
  return `reelbase: Node.js ${version.replace(/^v/, '')} reached its end of life on ${end} and gets no security fixes; run reelbase on Node.js 22 or 24 (LTS).`;
}

/**
 * Silences third-party notices about the Node.js version (the AWS SDK's NodeVersionSupportWarning,
 * printed on every start on Node 20) through the SDK's documented switch, unless the operator set
 * it: reelbase says it once, in its own words, above.
 */
export function quietThirdPartyNotices(env: NodeJS.ProcessEnv = process.env): void {
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

/**
 * Says on stderr, once at the start of a long-running command, that this Node.js is past its end
 * of life: judged on today's date by the system clock, not the service's (which tests pin far
 * ahead with REELBASE_TEST_CLOCK, and which would make every such test print it). Tests set the
 * day with REELBASE_TEST_TODAY: their processes are started on a day before every end of life.
 */
export function printNodeSupport(io: CliIo): void {
  const day = fromEnv(envOf(io), 'REELBASE_TEST_TODAY');
  const today = day === undefined ? new Date() : new Date(day);
  if (Number.isNaN(today.getTime())) throw new UsageError(`REELBASE_TEST_TODAY: "${day}" is not a date such as 2030-01-01`);
  const notice = nodeSupportNotice(process.version, today);
  if (notice) line(io.stderr, notice);
}
