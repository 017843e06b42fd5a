import { ApiError, codes } from './errors';

/** An API version as [major, minor, patch]; compared component-wise. */
export type Version = readonly [number, number, number];

export const latestVersion: Version = [3, 4, 0];

export const sameVersion = (a: Version, b: Version): boolean => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

const supportedMinors: Record<number, readonly number[]> = { 3: [1, 2, 3, 4] };

/**
 * Behaviour that changed between versions (SPEC.md, Versioning), as the version it starts in.
 * Operations ask `since(version, 'name')` instead of comparing numbers in place.
 */
export const changes = {
  /** PATCH answers 200 with the resource instead of 204; POST /channels answers 200. */
  patchReturnsResource: [3, 2, 0],
  /** Every endpoint answers its typed content type (plain application/json before). */
  typedContentTypes: [3, 2, 0],
  /** The picture `default` field exists (removed again in 3.3). */
  pictureDefaultField: [3, 2, 0],
  /** POST pictures answers 201 (200 in 3.1). */
  pictureCreated: [3, 2, 0],
  /** Connections appear in representations. */
  connections: [3, 2, 0],
  /** Category interactions, Clip categories and recommendations; 200-with-resource on several PUTs. */
  clipCategories: [3, 3, 0],
  /** POST credits answers 201 with the Credit (an empty 201 before). */
  creditOnCreate: [3, 3, 0],
  /** DELETE text track answers 204 (200 with the deleted track before). */
  texttrackDeleteNoContent: [3, 2, 0],
  /** PUT /videos/{id}/privacy/users/{user_id} answers 200 with the User (204 before). */
  privacyUserReturnsUser: [3, 3, 0],
  /** PUT /videos/{id}/tags answers 200 (201 before). */
  videoTagsOk: [3, 3, 0],
  /** review_page replaces review_link. */
  reviewPage: [3, 3, 6],
  /** Clip carries parent_folder; User carries the folders connection. */
  parentFolder: [3, 3, 9],
  /** metadata.connections.activities removed from User. */
  noUserActivities: [3, 3, 8],
  /** GET upload answers 200 with an Upload Attempt; GET ticket a full Upload Ticket. */
  fullUploadAnswers: [3, 3, 11],
  /** POST /me/videos answers 201 with a Clip; `type` instead of upload.approach is a 400. */
  clipOnVideoCreate: [3, 4, 0],
  /** POST /videos/{id}/versions takes every upload approach (only tus before: 404/5013). */
  versionsAnyApproach: [3, 4, 0],
  /** User upload_quota.quota.hd/.sd removed. */
  noQuotaHdSd: [3, 4, 0],
  /** On Demand page: episodes.buy, video counts by type and interactions added; regions and episodes.purchase removed. */
  ondemandFields: [3, 3, 0],
  /** POST On Demand pages answers 201 (200 before); On Demand videos are Clips (the On Demand Video representation before). */
  ondemandCurrentForm: [3, 4, 0],
  /** POST albums answers 201 (200 before) and takes privacy embed_only (only anybody, password before). */
  albumsCurrentForm: [3, 2, 0],
  /** PUT /groups/{id}/videos/{video_id} answers 200 with the Clip (204 before). */
  groupVideoClip: [3, 3, 0],
  /** Group privacy.forums removed. */
  noGroupForums: [3, 4, 0],
  /** Comment operations answer 401 with 8003 (8000 before: SPEC.md "8000 in an earlier form"). */
  commentsInvalidCredentials8003: [3, 4, 0],
} as const satisfies Record<string, Version>;

export type Change = keyof typeof changes;

export const compareVersions = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

export const since = (version: Version, change: Change): boolean => compareVersions(version, changes[change]) >= 0;

/** `3.2` for Content-Type; the patch level is kept only where a change depends on it. */
export const formatVersion = (v: Version): string => (v[2] && v[0] === 3 && v[1] === 3 ? `${v[0]}.${v[1]}.${v[2]}` : `${v[0]}.${v[1]}`);

/**
 * Reads the version from an Accept header: `application/vnd.<vendor>.*+json;version=3.2`, any vendor
 * word, with or without `+json`, spaces around `;`, comma lists (first vendor type wins).
 * No vendor type or no version → latest. An unsupported version → 400/2206.
 */
export function parseAcceptVersion(accept: string | undefined): Version {
  if (!accept) return latestVersion;
  const vendorType = accept
    .split(',')
    .map((part) => part.trim())
    .find((part) => /^application\/vnd\./i.test(part));
  if (!vendorType) return latestVersion;
  const match = /;\s*version\s*=\s*"?([^;,"\s]+)"?/i.exec(vendorType);
  if (!match) return latestVersion;
  const raw = match[1];
  const m = /^(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3}))?$/.exec(raw);
  const version: Version | null = m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
  if (!version || !supportedMinors[version[0]]?.includes(version[1])) {
    throw new ApiError(
      400,
      codes.badVersion,
      'The requested API version is not supported.',
      `Unsupported API version "${raw}" in the Accept header; supported versions are 3.1 to 3.4.`,
    );
  }
  return version;
}
