import type { Operation } from '../engine/operation';

export const videoPresetOperations: Operation<never>[] = [];
