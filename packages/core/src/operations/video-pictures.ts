import type { Operation } from '../engine/operation';

export const videoPictureOperations: Operation<never>[] = [];
