import { createInterface } from 'node:readline';
import type { Doc } from '@reelbase/core';
import { parseDocument, parseHeader, type DumpHeader, type DumpSink } from './dump-format';

/** Lines handed to the sink at once: consecutive documents of one collection. */
const pageSize = 500;

/**
 * Reads a dump line by line from `input` and pushes it into `sink`, a page at a time, so a dump
 * of any size streams through a bounded buffer. Blank lines are skipped; anything else that is
 * not a header or document line fails with its line number. An empty input pushes nothing (the
 * importer reports it).
 */
export async function readDump(input: NodeJS.ReadableStream, sink: DumpSink): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header: DumpHeader | undefined;
  let page: { collection: string; docs: Doc[] } | undefined;
  let number = 0;
  const flush = async () => {
    if (page) await sink.documents(page.collection, page.docs);
    page = undefined;
  };
  for await (const text of lines) {
    number++;
    if (text.trim() === '') continue;
    if (!header) {
      header = parseHeader(text, number);
      await sink.header(header);
      continue;
    }
    const { collection, doc } = parseDocument(text, number, header);
    if (page && (page.collection !== collection || page.docs.length >= pageSize)) await flush();
    page ??= { collection, docs: [] };
    page.docs.push(doc);
  }
  await flush();
}
