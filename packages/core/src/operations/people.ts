import type { Operation } from '../engine/operation';

export const peopleOperations: Operation<never>[] = [];
