// @reelbase/blobs-fs: the filesystem blob store (a directory, on one machine or shared by a fleet).
export { FsBlobStore, freshDir, removeDir } from './fs-blob-store';
export { tusDirOf, tusFileRemover, removeTusFile } from './tus-files';
