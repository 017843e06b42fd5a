// Once a run is over, scripts/test.mjs prints the slowest test files (each file's process wall time,
// written by scripts/file-times.mjs) and their sum: with three files at a time, the run lasts about
// a third of that sum, and never less than its longest file.
import { readFileSync, existsSync } from 'node:fs';

const shown = 10;

/** The lines to print for the times in `path` (one JSON object a line), slowest first. */
export function slowestFiles(path) {
  if (!existsSync(path)) return '';
  const files = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  files.sort((a, b) => b.ms - a.ms);
  const sum = (key) => files.reduce((s, f) => s + (f[key] ?? 0), 0) / 1000;
  const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
  const lines = [`\nThe ${Math.min(shown, files.length)} slowest of ${files.length} files (all together: ${sum('ms').toFixed(0)} s, CPU ${sum('cpuMs').toFixed(0)} s):\n`];
  for (const f of files.slice(0, shown)) lines.push(`${seconds(f.ms)}  ${f.cpuMs === null ? '' : `(CPU ${seconds(f.cpuMs).trim()})  `}${f.file}\n`);
  return lines.join('');
}
