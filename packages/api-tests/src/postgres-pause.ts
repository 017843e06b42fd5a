import { readdirSync, readFileSync } from 'node:fs';

/** The processes of this machine: pid, parent pid and command line (Linux /proc). */
function processes(): { pid: number; ppid: number; args: string[] }[] {
  const out: { pid: number; ppid: number; args: string[] }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The second field (the command name) may hold spaces and parentheses: read after its last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.push({ pid: Number(name), ppid, args: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0') });
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}

/**
 * Freezes the PostgreSQL server at `url` (scripts/with-postgres.sh's throwaway cluster, on this
 * machine): SIGSTOP to its postmaster and every backend, so connections open and queries hang as
 * they do when a database server stalls. Answers the function that thaws it.
 */
export function pausePostgres(url: string): () => void {
  const port = new URL(url).port;
  const all = processes();
  const postmaster = all.find((p) => p.args.some((a, i) => a === '-p' && p.args[i + 1] === port) || p.args.some((a) => a.includes(`-p ${port} `)));
  if (!postmaster) throw new Error(`no postgres process listens on port ${port} here`);
  const frozen = [...all.filter((p) => p.ppid === postmaster.pid).map((p) => p.pid), postmaster.pid];
  for (const pid of frozen) process.kill(pid, 'SIGSTOP');
  return () => {
    for (const pid of frozen.reverse()) process.kill(pid, 'SIGCONT');
  };
}
