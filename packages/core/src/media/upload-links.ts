import { escapeHtml } from '../support/html';

/** The id in an upload link: `<video id>-<secret>`, or `<video id>.<version id>-<secret>` for a new version. */
export const uploadId = (videoId: string, secret: string, versionId?: string): string => `${videoId}${versionId ? `.${versionId}` : ''}-${secret}`;

/** The absolute tus upload link of a video (or a version of it) still uploading. */
export const tusLink = (baseUrl: string, videoId: string, secret: string, versionId?: string): string =>
  `${baseUrl}/uploads/tus/${uploadId(videoId, secret, versionId)}`;

/** The absolute multipart POST upload link (approach post). */
export const postLink = (baseUrl: string, videoId: string, secret: string, versionId?: string): string =>
  `${baseUrl}/uploads/post/${uploadId(videoId, secret, versionId)}`;

/** What an upload object shows for its approach while in progress: the link to send bytes to, and for post an HTML form. */
export function uploadLinks(
  upload: { approach: string | null; status: string; secret?: string | null },
  baseUrl: string,
  videoId: string,
  versionId?: string,
): { upload_link: string | null; form: string | null } {
  if (!upload.secret || upload.status !== 'in_progress') return { upload_link: null, form: null };
  if (upload.approach === 'tus') return { upload_link: tusLink(baseUrl, videoId, upload.secret, versionId), form: null };
  if (upload.approach === 'post') {
    const link = postLink(baseUrl, videoId, upload.secret, versionId);
    return { upload_link: link, form: postForm(link) };
  }
  if (upload.approach === 'streaming') return { upload_link: `${baseUrl}/uploads/stream/${uploadId(videoId, upload.secret, versionId)}`, form: null };
  return { upload_link: null, form: null };
}

/** The HTML form of a post upload: it sends the file as `file_data` of a multipart POST to `link`. */
export const postForm = (link: string): string =>
  `<form method="POST" action="${escapeHtml(link)}" enctype="multipart/form-data"><label for="file_data">Your video</label><input type="file" name="file_data" id="file_data"><input type="submit" name="submit" value="Submit"></form>`;
