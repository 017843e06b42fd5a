/**
 * The JSON driver's ceiling, measured by `npm run bench` (case `ceiling`): every committed write
 * rewrites and fsyncs the whole file, so a write costs time in proportion to the file's size
 * (serialising, encoding, writing, fsyncing). One client writing back to back on a 2-core VM saw
 * a p99 of 30–34 ms at 3.9 MiB and 55–66 ms at 7.8 MiB in two runs, about 7 ms more a MiB, so the
 * 50 ms line falls near 6.4 MiB; this is a little under it. With the seeder's mix of users,
 * videos, likes, comments, tags and feed events that is around 1,500 videos. Beyond it, SQLite is
 * the driver to use (`reelbase migrate`).
 */
export const jsonStoreCeilingBytes = 6 * 1024 ** 2;
