export interface Row {
  endpoint: string;
  target: string;
  body: string;
  rps: number;
  p50: number;
  p99: number;
  ratio: number | null;
  note: string;
}

const fixed = (n: number, digits = 0) => n.toFixed(digits);

/** Plain text columns, right-aligned numbers. */
export function formatTable(rows: Row[]): string {
  const header = ['endpoint', 'target', 'body', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', ''];
  const cells = rows.map((r) => [r.endpoint, r.target, r.body, fixed(r.rps), fixed(r.p50), fixed(r.p99), r.ratio === null ? '' : `${fixed(r.ratio * 100)}%`, r.note]);
  const all = [header, ...cells];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const numeric = new Set([3, 4, 5, 6]);
  return all
    .map((row) => row.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd())
    .join('\n');
}

export const kilobytes = (bytes: number): string => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);
