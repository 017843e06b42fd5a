import type { Operation } from '../engine/operation';

export const versionOperations: Operation<never>[] = [];
