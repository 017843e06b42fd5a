// @reelbase/blobs-s3: the S3 blob store, a package of its own so that the AWS SDK is loaded only
// by processes that use a bucket. `@reelbase/blobs-s3/tus` is its multipart state for tus, without the SDK.
export { S3BlobStore, parseS3Url, s3ClientConfig, type S3BlobStoreOptions } from './s3-blob-store';
export { openS3BlobStore } from './open-bucket';
export { MultipartTusStore } from './tus-multipart-store';
