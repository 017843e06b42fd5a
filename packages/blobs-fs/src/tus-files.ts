import { join } from 'node:path';
import { FileStore } from '@tus/file-store';

/** Where a filesystem blob store's tus uploads gather: beside the files, in `<filesDir>/.tus`. */
export const tusDirOf = (filesDir = 'files'): string => join(filesDir, '.tus');

/** Removes what @tus/file-store kept for upload `id` (its bytes and their `.json`), if anything. */
export const removeTusFile = (datastore: FileStore, id: string): Promise<void> => datastore.remove(id).catch(() => undefined);

/**
 * What the worker's give-up job uses to remove the partial file of upload `id` (as in its link)
 * from the tus directory of a filesystem blob store: a client that never returns leaves it there.
 * (A store whose tus uploads gather in the bucket has none: the worker does not ask for it then.)
 */
export function tusFileRemover(filesDir: string | undefined): (id: string) => Promise<void> {
  // Made on first use: FileStore creates its directory.
  let datastore: FileStore | undefined;
  return (id) => removeTusFile((datastore ??= new FileStore({ directory: tusDirOf(filesDir) })), id);
}
