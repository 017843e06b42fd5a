// The bulk writer's thread (bulk-writer.ts): runs each batch it is sent in one transaction.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { BulkAnswer, BulkRequest, BulkWriterData } from './bulk-writer';
import { connect } from './connect';
import { applyLoadSettings } from './load-settings';

const port = parentPort!;
const { path, cacheMiB, fresh } = workerData as BulkWriterData;
const conn = connect(new Database(path, { fileMustExist: true }), cacheMiB);
applyLoadSettings(conn.db, fresh);

port.on('message', (request: BulkRequest) => {
  if (request === null) {
    conn.close();
    port.close();
    return;
  }
  let answer: BulkAnswer;
  try {
    const rowids = conn.immediate(() => conn.insertAll(request.inserts));
    answer = { id: request.id, rowids };
  } catch (error) {
    const { message, code } = error as { message: string; code?: string };
    answer = { id: request.id, error: { message, code } };
  }
  port.postMessage(answer);
});
