import type { Operation } from '../engine/operation';

export const groupOperations: Operation<never>[] = [];
