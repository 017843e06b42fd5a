export { drivers, type TestDriver } from './drivers';
export { Harness, TestClock, type Answer, type CallOptions, type Fixture } from './harness';
export { expectError } from './expect';
export { createTusVideo, sendByTus, tinyMp4, tinyWebm, uploadByTus } from './media';
export { fetchBytes, filesUnder, imageSize, makeClip, makeImage, type ClipOptions } from './clips';
