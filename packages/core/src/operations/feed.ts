import type { Operation } from '../engine/operation';

export const feedOperations: Operation<never>[] = [];
