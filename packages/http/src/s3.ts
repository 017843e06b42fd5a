// `@reelbase/http/s3`, kept for programs that import it: the S3 blob store is @reelbase/blobs-s3 now.
export * from '@reelbase/blobs-s3';
