import type { Operation } from '../engine/operation';

export const texttrackOperations: Operation<never>[] = [];
