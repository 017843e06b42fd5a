import type { Filter, Scalar } from './store';

/** Small builders so filter trees read like the condition they express. */
export const eq = (field: string, value: Scalar): Filter => ({ field, op: 'eq', value });
export const ne = (field: string, value: Scalar): Filter => ({ field, op: 'ne', value });
export const gt = (field: string, value: Scalar): Filter => ({ field, op: 'gt', value });
export const gte = (field: string, value: Scalar): Filter => ({ field, op: 'gte', value });
export const lt = (field: string, value: Scalar): Filter => ({ field, op: 'lt', value });
export const lte = (field: string, value: Scalar): Filter => ({ field, op: 'lte', value });
export const isIn = (field: string, values: readonly Scalar[]): Filter => ({ field, op: 'in', values });
export const notIn = (field: string, values: readonly Scalar[]): Filter => ({ field, op: 'nin', values });
export const contains = (field: string, value: string): Filter => ({ field, op: 'contains', value });
export const inSelect = (field: string, collection: string, selectField: string, where?: Filter): Filter => ({
  field,
  op: 'inSelect',
  select: { collection, field: selectField, where },
});
export const and = (...filters: (Filter | undefined)[]): Filter => ({ and: filters.filter((f): f is Filter => !!f) });
export const or = (...filters: (Filter | undefined)[]): Filter => ({ or: filters.filter((f): f is Filter => !!f) });
export const not = (filter: Filter): Filter => ({ not: filter });

/** `{ a: 1, b: 'x' }` → a = 1 AND b = 'x'. */
export const where = (fields: Record<string, Scalar>): Filter => and(...Object.entries(fields).map(([k, v]) => eq(k, v)));
