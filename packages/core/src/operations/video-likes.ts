import type { Operation } from '../engine/operation';

export const videoLikeOperations: Operation<never>[] = [];
