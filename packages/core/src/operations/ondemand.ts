import type { Operation } from '../engine/operation';

export const ondemandOperations: Operation<never>[] = [];
