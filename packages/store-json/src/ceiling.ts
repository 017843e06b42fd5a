/**
 * The JSON driver's ceiling, measured by `npm run bench` (case `ceiling`): every committed write
 * rewrites and fsyncs the whole file, so a write costs time in proportion to the file's size, and
 * past about this size a write's p99 passes 50 ms (one client writing back to back; with the
 * seeder's mix of users, videos, likes and comments that is about 4,000 videos). Beyond it,
 * SQLite is the driver to use (`reelbase migrate`).
 */
export const jsonStoreCeilingBytes = 16 * 1024 ** 2;
