import { readdirSync, readFileSync } from 'node:fs';

/** One live process, as the process table (Linux /proc) shows it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** The program's name (`ffmpeg`, `sh`, `node`), at most 15 characters. */
  name: string;
}

/** A `stat` file of /proc: `pid (name) state ppid …`; the name may hold spaces and parentheses. Its name, and the fields after it (state first). */
function readStat(path: string): { name: string; fields: string[] } {
  const stat = readFileSync(path, 'utf8');
  const close = stat.lastIndexOf(')');
  return { name: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
}

/** `/proc/<pid>/stat`; null for a process gone or a zombie (dead, not yet reaped). */
function entry(pid: number): ProcessEntry | null {
  try {
    const { name, fields } = readStat(`/proc/${pid}/stat`);
    const [state, ppid] = fields;
    return state === 'Z' ? null : { pid, ppid: Number(ppid), name };
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds this process's main thread (its event loop) has used, in steps of 10 ms (the
 * kernel's clock tick): utime and stime of its task in /proc. Unlike wall-clock time it does not
 * grow when other processes load the machine, and unlike process.cpuUsage() it leaves out the
 * worker threads.
 */
export function eventLoopCpuMs(): number {
  const { fields } = readStat(`/proc/self/task/${process.pid}/stat`);
  // stat(5) fields 14 and 15; `fields` starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) * 10;
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
