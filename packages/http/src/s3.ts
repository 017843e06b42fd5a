// `@reelbase/http/s3`: the S3 blob store, a module of its own so that the AWS SDK is loaded only
// by processes that use a bucket.
export { S3BlobStore, parseS3Url, s3ClientConfig, type S3BlobStoreOptions } from './s3-blob-store';
export { MultipartTusStore } from './tus-multipart-store';
