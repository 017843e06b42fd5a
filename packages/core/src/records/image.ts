/** An image uploaded to a record's link (PUT), as the record keeps it; its files live under `imageDir`. */
export interface StoredImage {
  /** 1 for the first upload, one more for each replacement: part of every link, so caches never serve an old one. */
  version: number;
  /** The blob key prefix of its master and sizes. */
  key: string;
  width: number;
  height: number;
  /** The format it was uploaded in. */
  format: string;
  /** What its sizes are served as: PNG keeps an alpha channel, everything else is JPEG. */
  type: 'jpeg' | 'png';
  time: string;
}
