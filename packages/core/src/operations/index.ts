import type { Operation } from '../engine/operation';
import { rootOperation } from './root';
import { userOperations } from './users';
import { userVideoOperations } from './user-videos';
import { videoOperations } from './videos';

const families = [...userOperations, ...videoOperations, ...userVideoOperations] as readonly Operation<unknown>[];

/** The operation table: one object per spec row; each family lives in its own file. */
export const operations: readonly Operation<unknown>[] = [...families, rootOperation(families)];
