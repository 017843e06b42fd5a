// @reelbase/worker: what a `reelbase worker` process is (`serve` embeds the same), and the
// outbound-request policy its webhook deliveries share with the transport's pull uploads.
export { startWorker, transcodeConcurrency, type WorkerStartOptions } from './worker';
export { Outbound } from './outbound';
