import { readdirSync, readFileSync } from 'node:fs';

/** One live process, as the process table (Linux /proc) shows it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** The program's name (`ffmpeg`, `sh`, `node`), at most 15 characters. */
  name: string;
}

/** `/proc/<pid>/stat`: `pid (name) state ppid …`; the name may hold spaces and parentheses. Null for a process gone or a zombie (dead, not yet reaped). */
function entry(pid: number): ProcessEntry | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const [state, ppid] = stat.slice(close + 2).split(' ');
    return state === 'Z' ? null : { pid, ppid: Number(ppid), name: stat.slice(stat.indexOf('(') + 1, close) };
  } catch {
    return null;
  }
}

/** Every live process (zombies left out). */
export function processTable(): ProcessEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => entry(Number(name)))
    .filter((e): e is ProcessEntry => e !== null);
}

/** The live processes `pid` started, their children, and so on. */
export function descendants(pid: number): ProcessEntry[] {
  const table = processTable();
  const found: ProcessEntry[] = [];
  for (let parents = new Set([pid]); parents.size; ) {
    const children = table.filter((p) => parents.has(p.ppid));
    found.push(...children);
    parents = new Set(children.map((p) => p.pid));
  }
  return found;
}

/** True while `p` is alive (its pid live under the same name: not reused by another program). */
export const stillRunning = (p: ProcessEntry): boolean => entry(p.pid)?.name === p.name;
