/**
 * How long a test waits for something that does happen, only slowly on a busy machine (a server or
 * a browser to start, a child to exit, a background pull or transcode to settle), before calling it
 * a hang. Not a speed claim: the suite runs beside other suites and CPU-heavy jobs (load 20 on 2
 * cores), where a server took more than 20 s to start and a CLI more than 30 s to run. A guard only
 * has to end a wait that would never end, with a message saying what it waited for; each test's own
 * timeout (scripts/test.mjs, 300 s) stays the backstop.
 */
export const hangGuardMs = 120_000;
