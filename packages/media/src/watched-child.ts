import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/**
 * Node has no parent-death signal, and a SIGKILLed server cannot kill its children: an ffmpeg it
 * started would go on writing into a directory nobody owns (issue 48). So on POSIX systems every
 * tool runs under a small `sh` that holds one end of a pipe from this process (fd 3) and starts
 * the tool in the background: when that pipe reaches end-of-file, which the kernel makes happen
 * however this process dies, the shell kills its process group, the tool included. The group is
 * the shell's own (`detached`: a new session), so `killWatched` can kill the shell and the tool at
 * once, and nothing else. The shell exits with the tool's status (128 + n when a signal n ended it).
 */
const watchdog = [
  '"$@" 3<&- &',
  'tool=$!',
  '{ read -r _ <&3; kill -KILL 0; } 2>/dev/null &',
  'dog=$!',
  'wait "$tool"',
  'status=$?',
  'kill "$dog" 2>/dev/null',
  'exit "$status"',
].join('\n');

const watched = process.platform !== 'win32';

const runnable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Spawns `path` with `args` (no shell of the user's: the arguments are passed through verbatim),
 * its stdin closed, stdout piped when `stdout` is true, stderr piped. On Windows the tool is
 * spawned directly, without the watchdog; so is a path that cannot run, for the child process's
 * own error (ENOENT, EACCES) rather than the shell's exit code 127.
 */
export function spawnWatched(path: string, args: readonly string[], o: { stdout: boolean }): ChildProcess {
  const stdout = o.stdout ? 'pipe' : 'ignore';
  if (!watched || !runnable(path)) return spawn(path, args, { stdio: ['ignore', stdout, 'pipe'], windowsHide: true });
  return spawn('/bin/sh', ['-c', watchdog, 'sh', path, ...args], { stdio: ['ignore', stdout, 'pipe', 'pipe'], detached: true });
}

/** Kills a child of `spawnWatched` and everything it started, at once. */
export function killWatched(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    if (watched) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // Already gone (its group with it).
  }
}
