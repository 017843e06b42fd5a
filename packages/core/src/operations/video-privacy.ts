import type { Operation } from '../engine/operation';

export const videoPrivacyOperations: Operation<never>[] = [];
