// `@reelbase/core/seeding`: what @reelbase/seed writes a synthetic population with — the records'
// types and the domain's own constructors, so that seeded records are the ones the API would make.
export { by } from './engine/list';
export { canonicalTag } from './records/tag';
export { maxTagsPerVideo, readTagWord, markUpgraded, rememberTag, tagNames, TAG_NAMES_UPGRADE } from './domain/tags';
export { newChannel } from './domain/channels';
export { newUser } from './domain/users';
export { newVideo } from './domain/video-write';
export type { FollowRecord, UserRecord, UserVideoRecord, VideoRecord, VideoTagRecord } from './records';
export type { ActivityRecord, ActivityType } from './records/feed';
export type { ChannelRecord, ChannelUserRecord, ChannelVideoRecord } from './records/channel';
export type { CommentRecord } from './records/comment';
