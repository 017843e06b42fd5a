export { createLogger, logSettingsFrom, type Logger, type LogSettings, type LogFormat } from './logger';
export { createMetrics, timeTransactions, type Metrics } from './metrics';
export { countedBlobs } from './counted-blobs';
export { Health } from './health';
export { jobObserver } from './job-log';
export { startMetricsServer, type MetricsListen, type MetricsServer } from './metrics-server';
export { observeRequests } from './request-log';
export { loggedPath } from './logged-path';
export { instrument, type Instrumented } from './instrument';
