import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { createReadStream } from 'node:fs';
import { Server as TusServer, Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { ApiError, finishUpload, newBlobKey, type BlobStore, type MediaTools, type Service } from '@reelbase/core';
import { linkId, openLink, refuse, type Write } from './upload-link';

export const tusPath = '/uploads/tus';

/**
 * tus 1.0.0 upload links (`/uploads/tus/<id>`), served by @tus/server over its file store in
 * `<files>/.tus`. Core decides whether a link is valid and what a finished file becomes; this only
 * moves bytes: it creates the tus upload on first use, then hands the finished file to the blob store.
 */
export function createTusHandler(service: Service, blobs: BlobStore, tusDir: string, media: MediaTools, write: Write) {
  // Made on first use: FileStore creates its directory, and most servers never see a tus request.
  let made: { datastore: FileStore; tus: TusServer } | undefined;
  const make = () => (made ??= build());
  const build = () => {
    const datastore = new FileStore({ directory: tusDir });
    const tus = new TusServer({
      path: tusPath,
      datastore,
      maxSize: () => service.config.uploadMaxBytes,
      // Links are made by POST /me/videos, never by tus creation requests.
      namingFunction: () => {
        throw { status_code: 403, body: 'Upload links are created with POST /me/videos.\n' };
      },
      async onUploadFinish(_req, upload) {
        const key = newBlobKey(upload.id.split(/[.-]/)[0]);
        try {
          const info = await blobs.put(key, createReadStream(join(tusDir, upload.id)));
          const done = await finishUpload(service, upload.id, info, { blobs, media });
          for (const k of done.discard) await blobs.deleteTree(k);
        } catch (e) {
          await blobs.delete(key);
          throw e instanceof ApiError ? { status_code: e.status, body: `${e.developerMessage}\n` } : e;
        } finally {
          await datastore.remove(upload.id).catch(() => undefined);
        }
        return {};
      },
    });
    return { datastore, tus };
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { datastore, tus } = make();
    const id = linkId(req, tusPath);
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'OPTIONS') {
      const open = await openLink(service, id, 'tus');
      if (open instanceof ApiError) {
        // An expired or finished link leaves no partial file behind.
        await datastore.remove(id).catch(() => undefined);
        return refuse(service, write, req, res, open, { 'Tus-Resumable': '1.0.0' });
      }
      const exists = await datastore.getUpload(id).then(
        () => true,
        () => false,
      );
      if (!exists) await datastore.create(new Upload({ id, size: open.size ?? undefined, offset: 0, creation_date: new Date().toISOString() }));
    }
    await tus.handle(req, res);
  };
}
