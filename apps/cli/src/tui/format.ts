import { cell, pick } from '../render/table';
import type { Format } from './sections';

/** `754` → `12:34`, `3754` → `1:02:34`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(rest)}` : `${m}:${two(rest)}`;
}

/** An item's value at `path` as one line of text; '' when the item has none. */
export function formatValue(item: unknown, path: string, format: Format = 'text'): string {
  const value = pick(item, path);
  if (value === undefined || value === null) return '';
  switch (format) {
    case 'time':
      // ISO 8601 with offset, shown to the minute: 2026-01-02 03:04
      return typeof value === 'string' ? value.replace('T', ' ').slice(0, 16) : cell(value);
    case 'duration':
      return typeof value === 'number' ? formatDuration(value) : cell(value);
    case 'names':
      return Array.isArray(value) ? value.map((v) => cell(pick(v, 'name') ?? v)).join(', ') : cell(value);
    case 'yesno':
      return value === true ? 'yes' : value === false ? 'no' : cell(value);
    case 'count':
      return typeof value === 'number' ? value.toLocaleString('en-US') : cell(value);
    default:
      return typeof value === 'string' ? value.replace(/\s+/g, ' ') : cell(value);
  }
}

/** The id of a resource: the last segment of its `uri`. */
export const idOf = (item: unknown): string => String(pick(item, 'uri') ?? '').split('/').pop() ?? '';

/** A resource's display name: its `name`, else its uri. */
export const nameOf = (item: unknown): string => {
  const name = pick(item, 'name');
  return typeof name === 'string' && name ? name : String(pick(item, 'uri') ?? '');
};

/** Clips `text` to `width` columns with an ellipsis. */
export const clip = (text: string, width: number): string => (text.length <= width ? text : width <= 1 ? text.slice(0, width) : `${text.slice(0, width - 1)}…`);

/** Text broken into lines of at most `width` columns, at spaces where it can be (long words are cut). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    for (let rest = word; rest; ) {
      const room = line ? width - line.length - 1 : width;
      if (rest.length <= room) {
        line = line ? `${line} ${rest}` : rest;
        rest = '';
      } else if (line) {
        lines.push(line);
        line = '';
      } else {
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
    }
  }
  return line ? [...lines, line] : lines;
}
