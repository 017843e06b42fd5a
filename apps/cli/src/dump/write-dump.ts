import type { DumpSink } from './dump-format';

/** A sink that writes the dump as JSON lines, one write per page of documents. */
export function writeDump(write: (text: string) => Promise<void> | void): DumpSink {
  return {
    async header(header) {
      await write(`${JSON.stringify(header)}\n`);
    },
    async documents(collection, docs) {
      await write(docs.map((doc) => `${JSON.stringify({ collection, doc })}\n`).join(''));
    },
  };
}
