import type { Operation } from '../engine/operation';

export const creditOperations: Operation<never>[] = [];
