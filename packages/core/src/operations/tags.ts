import type { Operation } from '../engine/operation';

export const tagOperations: Operation<never>[] = [];
