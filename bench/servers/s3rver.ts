/** An S3-protocol server (s3rver) with one bucket, `bench`, keeping its objects under `<dir>`. */
import S3rver from 's3rver';

const [directory] = process.argv.slice(2);
const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: 'bench' }] });
const { port } = await s3.run();
process.stdout.write(`http://127.0.0.1:${port}\n`);
process.once('SIGTERM', () => {
  s3.httpServer.closeAllConnections();
  void s3.close().then(() => process.exit(0));
});
