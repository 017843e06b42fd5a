/** One server measured in one case. */
export interface Row {
  case: string;
  server: string;
  body: string;
  /** Requests a second; null for cases that time something else. */
  rps: number | null;
  p50: number;
  p99: number;
  note: string;
}

/** One target of the issue, with our figure, the peers' beside it and whether it is met. */
export interface Target {
  name: string;
  ours: string;
  peers: string;
  ratio: string;
  wanted: string;
  /** null when the case did not run. */
  met: boolean | null;
}

const ms = (n: number): string => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : n.toFixed(0)) : '–');

export function formatRows(rows: Row[]): string {
  return columns(
    ['case', 'server', 'body', 'req/s', 'p50 ms', 'p99 ms', ''],
    rows.map((r) => [r.case, r.server, r.body, r.rps === null ? '' : r.rps.toFixed(0), ms(r.p50), ms(r.p99), r.note]),
    new Set([3, 4, 5]),
  );
}

export function formatTargets(targets: Target[]): string {
  const verdict = (met: boolean | null) => (met === null ? 'not run' : met ? 'met' : 'NOT MET');
  return columns(
    ['target', 'ours', 'peers', 'ratio', 'wanted', ''],
    targets.map((t) => [t.name, t.ours, t.peers, t.ratio, t.wanted, verdict(t.met)]),
    new Set(),
  );
}

/** Plain text columns; `numeric` ones are right-aligned. */
function columns(header: string[], rows: string[][], numeric: Set<number>): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  return all
    .map((row) => row.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd())
    .join('\n');
}

export const kilobytes = (bytes: number): string => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);
export { ms };
