/**
 * The JSON driver's ceiling, measured by `npm run bench` (case `ceiling`): every committed write
 * rewrites and fsyncs the whole file, so a write costs time in proportion to the file's size
 * (serialising, encoding, writing, fsyncing: one client writing back to back on a 2-core VM saw a
 * p99 of 46–49 ms at 2.1 MiB and 69–94 ms at 3.8 MiB in two runs, so the 50 ms line falls between
 * 2.1 and 2.4 MiB). At about this size a
 * write's p99 passes 50 ms; with the seeder's mix of users, videos, likes, comments, tags and feed
 * events that is around 500 videos. Beyond it, SQLite is the driver to use (`reelbase migrate`).
 */
export const jsonStoreCeilingBytes = 2.25 * 1024 ** 2;
