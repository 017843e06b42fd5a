/** ISO 8601 with an explicit offset, second precision: `2026-01-02T03:04:05+00:00` (toISOString always ends in `.sssZ`). */
export const isoTime = (date: Date): string => `${date.toISOString().slice(0, -5)}+00:00`;
