import type { Operation } from '../engine/operation';

export const timelineThumbnailOperations: Operation<never>[] = [];
