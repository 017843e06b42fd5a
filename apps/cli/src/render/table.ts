/** Plain-text renderers for human output: no colours, no Ink, safe to pipe. */

const maxCell = 60;

/** A value as one table cell: scalars as is, lists joined, objects as compact JSON, cut to `max` characters. */
export function cell(value: unknown, max = maxCell): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'object') text = Array.isArray(value) && value.every((v) => typeof v !== 'object') ? value.join(',') : JSON.stringify(value);
  else text = String(value);
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The value at a dot path (`privacy.view`), reaching into arrays as `fields` does: `tags.name` of
 * a video is the list of its tags' names (a number picks one element: `sizes.0.link`).
 */
export const pick = (item: unknown, path: string): unknown => path.split('.').reduce<unknown>(step, item);

const step = (v: unknown, key: string): unknown => {
  if (Array.isArray(v)) return /^\d+$/.test(key) ? v[Number(key)] : v.map((e) => step(e, key)).filter((e) => e !== undefined);
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
};

/** A compact table: a header row, then one row per item, columns padded to their widest cell. */
export function renderTable(rows: readonly unknown[], columns: readonly string[]): string {
  const cells = rows.map((row) => columns.map((c) => cell(pick(row, c))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const format = (r: readonly string[]) => r.map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i]))).join('  ').trimEnd();
  return [format(columns.map((c) => c.toUpperCase())), ...cells.map(format)].map((l) => `${l}\n`).join('');
}

/** Columns for a list: the requested fields, else the usual identifying ones the items have. */
export function columnsFor(items: readonly unknown[], fields?: string): string[] {
  if (fields) return fields.split(',').map((f) => f.trim()).filter(Boolean);
  const first = items.find((i) => i && typeof i === 'object') as Record<string, unknown> | undefined;
  if (!first) return ['value'];
  const preferred = ['uri', 'name', 'title', 'tag', 'text', 'type', 'privacy.view', 'created_time'];
  const chosen = preferred.filter((c) => pick(first, c) !== undefined);
  if (chosen.length >= 2) return chosen.slice(0, 5);
  return Object.keys(first).filter((k) => typeof first[k] !== 'object' || first[k] === null).slice(0, 5);
}

/** One object as `key  value` lines, nested objects flattened to dot paths; scalars in full (links must stay usable). */
export function renderRecord(value: unknown): string {
  if (value === null || typeof value !== 'object') return `${cell(value)}\n`;
  const lines: [string, string][] = [];
  const walk = (v: unknown, prefix: string, depth: number) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && depth < 2) {
      for (const [k, inner] of Object.entries(v)) walk(inner, prefix ? `${prefix}.${k}` : k, depth + 1);
    } else lines.push([prefix, cell(v, v !== null && typeof v === 'object' ? maxCell : Infinity)]);
  };
  walk(value, '', 0);
  const width = Math.max(...lines.map(([k]) => k.length));
  return lines.map(([k, v]) => `${k.padEnd(width)}  ${v}`.trimEnd() + '\n').join('');
}
