import type { Operation } from '../engine/operation';

export const categoryOperations: Operation<never>[] = [];
