const units: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** A duration setting in seconds: `3600`, `90m`, `12h` or `30d`; null when `value` is none (or zero). */
export function durationSeconds(value: string): number | null {
  const m = /^(\d{1,9})([smhd]?)$/.exec(value);
  return m && Number(m[1]) > 0 ? Number(m[1]) * units[m[2] || 's'] : null;
}
