// `@reelbase/blobs-s3/tus`: the S3 store's multipart state for tus uploads, for the transport and
// the worker to use without loading the AWS SDK.
export { MultipartTusStore, isMultipartStore, multipartPartSize, type MultipartBlobs } from './tus-multipart-store';
