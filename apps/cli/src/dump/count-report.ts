import { renderTable } from '../render/table';
import type { DumpHeader } from './dump-format';
import { checkPassed, type CollectionCheck } from './import-store';

/**
 * How `export`, `import` and `migrate` show their per-collection counts: a table of the
 * collections that hold documents (or do not match), so dozens of empty ones do not drown it.
 */

/** The table of the rows shown, and a note on the empty collections left out. */
function tableOf(rows: readonly Record<string, unknown>[], columns: string[], collections: number): string {
  if (rows.length === 0) return `(all ${collections} collections are empty)\n`;
  const hidden = collections - rows.length;
  return renderTable(rows, columns) + (hidden > 0 ? `(${hidden} empty collection${hidden === 1 ? '' : 's'} not shown)\n` : '');
}

/** The header's counts: what a dump holds. */
export function renderDumpCounts(header: DumpHeader): string {
  const entries = Object.entries(header.collections);
  const rows = entries.filter(([, c]) => c.count > 0).map(([collection, c]) => ({ collection, documents: c.count, sequence: c.sequence }));
  return tableOf(rows, ['collection', 'documents', 'sequence'], entries.length);
}

/** The dump's counts beside the target's, each row `ok` or `MISMATCH`. */
export function renderChecks(checks: readonly CollectionCheck[]): string {
  const shown = checks.filter((c) => c.expected > 0 || c.found > 0 || !checkPassed(c));
  const rows = shown.map((c) => ({
    collection: c.collection,
    dump: c.expected,
    target: c.found,
    sequence: c.expectedSequence === c.foundSequence ? c.expectedSequence : `${c.expectedSequence} (target ${c.foundSequence})`,
    check: checkPassed(c) ? 'ok' : 'MISMATCH',
  }));
  return tableOf(rows, ['collection', 'dump', 'target', 'sequence', 'check'], checks.length);
}

/** `--json`: every collection by name, `{ expected, found, expected_sequence?, found_sequence?, ok }`. */
export function checksJson(checks: readonly CollectionCheck[]): Record<string, Record<string, number | boolean>> {
  return Object.fromEntries(
    checks.map((c) => [
      c.collection,
      {
        expected: c.expected,
        found: c.found,
        ...(c.expectedSequence === undefined ? {} : { expected_sequence: c.expectedSequence, found_sequence: c.foundSequence ?? 0 }),
        ok: checkPassed(c),
      },
    ]),
  );
}

export const documentTotal = (checks: readonly CollectionCheck[]): number => checks.reduce((n, c) => n + c.found, 0);
