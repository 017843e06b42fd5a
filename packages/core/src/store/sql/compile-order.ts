import { RELEVANCE } from '../search';
import type { OrderBy } from '../store';
import type { SqlDialect } from './sql-dialect';
import type { SqlTable } from './sql-table';

/**
 * ORDER BY that always ends with id ascending (numeric for auto ids, whose column is an integer).
 * `score` is the driver's relevance expression (higher is better), needed when RELEVANCE is asked.
 */
export function compileOrderBy<V>(dialect: SqlDialect<V>, table: SqlTable, orderBy: readonly OrderBy[] = [], score?: string): string {
  const terms = orderBy.map(({ field, direction }) => {
    if (direction !== 'asc' && direction !== 'desc') throw new Error(`invalid sort direction ${JSON.stringify(direction)}`);
    if (field !== RELEVANCE) return dialect.orderTerm(table, field, direction);
    if (score === undefined) throw new Error('ordering by relevance needs a match condition at the top of where');
    return `${score} ${direction === 'asc' ? 'ASC' : 'DESC'}`;
  });
  if (!orderBy.some((o) => o.field === 'id')) terms.push('id ASC');
  return terms.join(', ');
}

