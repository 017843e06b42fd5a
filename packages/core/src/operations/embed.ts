import type { Operation } from '../engine/operation';

export const embedOperations: Operation<never>[] = [];
