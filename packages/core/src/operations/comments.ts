import type { Operation } from '../engine/operation';

export const commentOperations: Operation<never>[] = [];
