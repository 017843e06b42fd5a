import type { Operation } from '../engine/operation';

export const albumOperations: Operation<never>[] = [];
