import type { Operation } from '../engine/operation';

export const channelOperations: Operation<never>[] = [];
