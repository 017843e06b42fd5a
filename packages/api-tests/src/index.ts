export { drivers, type TestDriver } from './drivers';
export { Harness, TestClock, type Answer, type CallOptions, type Fixture } from './harness';
export { expectError } from './expect';
export { createTusVideo, sendByTus, uploadByTus } from './media';
export { fetchBytes, filesUnder, imageSize, makeClip, makeImage, putFile, type ClipOptions } from './clips';
export { decodes, probeBytes } from './probe-output';
export { WebhookReceiver, type Delivery } from './webhook-receiver';
export { browserSkip, findChromium } from './browser';
export { TestS3 } from './s3';
