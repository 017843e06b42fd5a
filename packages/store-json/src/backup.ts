import { readFile } from 'node:fs/promises';
import { DurableFileAdapter } from './durable-file-adapter';

/**
 * Copies the JSON store file `source` to `to` while a server goes on writing it. The store's own
 * commit is the lock: each commit writes a whole new file and renames it over the old one
 * (DurableFileAdapter), and answers the writer only after that, so one read of the file is always
 * exactly one commit, holding every write acknowledged before the read began. The copy is parsed
 * (a file that is not the store's JSON is refused) and written as durably as the store writes.
 */
export async function copyJsonStore(source: string, to: string): Promise<{ bytes: number }> {
  const text = await readFile(source, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source} is not a JSON store: ${(e as Error).message}`);
  }
  if (typeof (data as { collections?: unknown } | null)?.collections !== 'object') throw new Error(`${source} is not a JSON store: it holds no collections`);
  await new DurableFileAdapter(to).write(data);
  return { bytes: Buffer.byteLength(text) };
}
