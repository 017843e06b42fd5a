import type { ProgressSnapshot, ProgressView } from '../batch/progress';

/** `850ms`, `42s`, `3m05s`, `2h10m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export const percentOf = (s: ProgressSnapshot): number => (s.total ? Math.floor(((s.done + s.failed) * 100) / s.total) : 100);

/** The counts of a snapshot: `200/1000 (20%) · 195 done · 5 failed · 48.1/s · ETA 17s`. */
export function formatCounts(s: ProgressSnapshot): string {
  const parts = [`${s.done + s.failed}/${s.total} (${percentOf(s)}%)`, `${s.done} done`, `${s.failed} failed`];
  if (s.skipped) parts.push(`${s.skipped} skipped`);
  parts.push(`${s.rate.toFixed(1)}/s`);
  if (s.etaMs !== null && s.done + s.failed < s.total) parts.push(`ETA ${formatDuration(s.etaMs)}`);
  return parts.join(' · ');
}

export const formatWaiting = (w: NonNullable<ProgressSnapshot['waiting']>): string => `waiting ${formatDuration(w.ms)}: ${w.reason}`;

const stepPercent = 5;
const quietMs = 10_000;

/**
 * Progress as plain lines for logs and pipes: one every 5% (or after 10 s of silence), one when
 * requests start being held back, and the final one.
 */
export function plainProgressView(write: (text: string) => void): ProgressView {
  let lastStep = -1;
  let lastAt = 0;
  let lastWait: string | null = null;
  const emit = (s: ProgressSnapshot) => {
    lastAt = s.elapsedMs;
    write(`${s.label}: ${formatCounts(s)}\n`);
  };
  return {
    update(s) {
      const wait = s.waiting ? s.waiting.reason : null;
      if (s.waiting && wait !== lastWait) write(`${s.label}: ${formatWaiting(s.waiting)}\n`);
      lastWait = wait;
      if (s.done + s.failed === 0) return;
      const step = Math.floor(percentOf(s) / stepPercent);
      if (step > lastStep || s.elapsedMs - lastAt >= quietMs) {
        lastStep = step;
        emit(s);
      }
    },
    async finish(s) {
      if (percentOf(s) < 100 || lastStep < 100 / stepPercent) emit(s);
    },
  };
}
