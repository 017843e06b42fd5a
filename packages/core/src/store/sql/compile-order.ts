import type { OrderBy } from '../store';
import type { SqlDialect } from './sql-dialect';
import type { SqlTable } from './sql-table';

/** ORDER BY that always ends with id ascending (numeric for auto ids, whose column is an integer). */
export function compileOrderBy<V>(dialect: SqlDialect<V>, table: SqlTable, orderBy: readonly OrderBy[] = []): string {
  const terms = orderBy.map(({ field, direction }) => {
    if (direction !== 'asc' && direction !== 'desc') throw new Error(`invalid sort direction ${JSON.stringify(direction)}`);
    return dialect.orderTerm(table, field, direction);
  });
  if (!orderBy.some((o) => o.field === 'id')) terms.push('id ASC');
  return terms.join(', ');
}
