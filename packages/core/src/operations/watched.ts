import type { Operation } from '../engine/operation';

export const watchedOperations: Operation<never>[] = [];
