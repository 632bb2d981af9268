/**
 * Pure translation of the read port's queries (domain/ports/read-store.ts) into SQLite SQL over a
 * table `(id TEXT PRIMARY KEY, doc TEXT, position INTEGER)` (`doc` the document as JSON), kept apart from the
 * driver so it can be read and tested alone. A field path `a.b` is `json_extract(doc, '$.a.b')`
 * (written as a literal, so the planner matches it to the expression indexes of toSqlIndex);
 * `id` is the key column.
 *
 * Semantics, as domain/ports/read-query.ts: a missing field and JSON null are SQL NULL; equality
 * and ranges hold only within one type (json_type guards: SQLite itself orders numbers before
 * text and would compare across types); strings compare by UTF-8 bytes (BINARY collation), that
 * is by code point; the text search runs the port's own JavaScript (a registered function), so
 * case folding is JavaScript's. One deviation, harmless for the port's use: JSON booleans sort
 * among the numbers as 0 and 1 (sort and page only on fields of one type, as the port says), and
 * numbers are compared as SQLite reads them from the JSON text: exact for integers and the
 * decimals documents hold, possibly one bit off for doubles of extreme exponents (1e-300).
 */
import type {
  FieldCondition,
  FindQuery,
  IndexSpec,
  KeysetCursor,
  ReadFilter,
  Scalar,
} from '../../domain/ports/read-store.js';

/** SQL text and its positional parameters. */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/** Name of the SQL function the store registers for the text search: (value, needle) → 0 | 1. */
export const CONTAINS_FUNCTION = 'port_contains';

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/**
 * The SQL expression of a field path: `id` → the key column, `a.b` → json_extract of the
 * document. Throws RangeError for a path that is not one or two identifiers (paths come from
 * code, never from a request, but are written into SQL, so they are checked).
 */
export function sqlField(path: string): string {
  if (path === 'id') return 'id';
  if (!PATH.test(path)) throw new RangeError(`not a field path: ${JSON.stringify(path)}`);
  return `json_extract(doc, '$.${path}')`;
}

/** json_type of a field path (NULL when absent; 'true'/'false' for booleans). */
const sqlType = (path: string): string => (path === 'id' ? `'text'` : `json_type(doc, '$.${path}')`);

/** The json_type guard that keeps only values of the scalar type of `value`. */
function typeGuard(path: string, value: string | number): string {
  return typeof value === 'string' ? `${sqlType(path)} = 'text'` : `${sqlType(path)} IN ('integer', 'real')`;
}

/** `field = value` with the port's meaning (type-exact; null = null or absent). */
function equals(path: string, value: Scalar): SqlPart {
  const field = sqlField(path);
  if (value === null) return { sql: `${field} IS NULL`, params: [] };
  if (typeof value === 'boolean') return { sql: `${sqlType(path)} = '${value ? 'true' : 'false'}'`, params: [] };
  if (typeof value === 'string') return { sql: `${field} = ?`, params: [value] };
  return { sql: `(${field} = ? AND ${typeGuard(path, value)})`, params: [value] };
}

const isCondition = (c: unknown): c is FieldCondition<Scalar> => typeof c === 'object' && c !== null;

const RANGES = [
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
] as const;

/** The clauses of one field's filter (all must hold); none when it constrains nothing. */
function fieldClauses(path: string, condition: unknown): SqlPart[] {
  if (!isCondition(condition)) return [equals(path, condition as Scalar)];
  const c = condition;
  const out: SqlPart[] = [];
  if (c.eq !== undefined) out.push(equals(path, c.eq));
  if (c.in !== undefined) {
    if (c.in.length === 0) out.push({ sql: '0', params: [] });
    else if (c.in.every((v) => typeof v === 'string')) {
      out.push({ sql: `${sqlField(path)} IN (${c.in.map(() => '?').join(', ')})`, params: [...c.in] });
    } else {
      const parts = c.in.map((v) => equals(path, v));
      out.push({ sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) });
    }
  }
  for (const [key, op] of RANGES) {
    const bound = c[key];
    if (bound === undefined) continue;
    out.push({ sql: `(${sqlField(path)} ${op} ? AND ${typeGuard(path, bound)})`, params: [bound] });
  }
  if (c.exists === true) out.push({ sql: `${sqlField(path)} IS NOT NULL`, params: [] });
  if (c.exists === false) out.push({ sql: `${sqlField(path)} IS NULL`, params: [] });
  return out;
}

/** The clause keeping only the rows after `after` in the order (sortBy, id), both one direction. */
function afterClause(after: KeysetCursor, sortBy: string, descending: boolean): SqlPart {
  const beyond = descending ? '<' : '>';
  if (sortBy === 'id') return { sql: `id ${beyond} ?`, params: [after.id] };
  // `field ≤ value` (≥ ascending) is a range the planner seeks to on the (…, field, id) index,
  // so a page deep in the list reads only its own rows (SQLite does not seek on a row value
  // `(field, id) < (?, ?)` over an expression index: it scanned from the top). The rest keeps
  // the rows of the same value past the cursor's id; the guard drops values of another type, as
  // the port says.
  const field = sqlField(sortBy);
  return {
    sql: `(${field} ${beyond}= ? AND (${field} ${beyond} ? OR id ${beyond} ?) AND ${typeGuard(sortBy, after.sortValue)})`,
    params: [after.sortValue, after.sortValue, after.id],
  };
}

/**
 * The WHERE clause (without the keyword; `1` when empty) of a filter and a find's cursor.
 * Throws RangeError when `text.fields` is empty or a path is malformed.
 */
export function toSqlWhere<T>(filter: ReadFilter<T> & Pick<FindQuery<T>, 'after' | 'sortBy' | 'descending'>): SqlPart {
  const parts: SqlPart[] = [];
  for (const [path, condition] of Object.entries(filter.where ?? {})) {
    if (condition !== undefined) parts.push(...fieldClauses(path, condition));
  }
  if (filter.text !== undefined) {
    if (filter.text.fields.length === 0) throw new RangeError('text.fields must name at least one field');
    const needle = filter.text.query;
    const any = filter.text.fields.map((f) => ({
      sql: `${CONTAINS_FUNCTION}(${sqlField(f)}, ${sqlType(f)}, ?)`,
      params: [needle],
    }));
    parts.push({ sql: `(${any.map((p) => p.sql).join(' OR ')})`, params: any.flatMap((p) => p.params) });
  }
  if (filter.after !== undefined)
    parts.push(afterClause(filter.after, filter.sortBy ?? 'id', filter.descending === true));
  if (parts.length === 0) return { sql: '1', params: [] };
  return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

/** The ORDER BY list (without the keywords) of a find: the sort field, then id, one direction. */
export function toSqlOrder<T>(query: Pick<FindQuery<T>, 'sortBy' | 'descending'>): string {
  const dir = query.descending ? 'DESC' : 'ASC';
  const by = query.sortBy ?? 'id';
  return by === 'id' ? `id ${dir}` : `${sqlField(by)} ${dir}, id ${dir}`;
}

/**
 * The column list of an expression index for `spec` (key order and directions kept), e.g.
 * `json_extract(doc, '$.orgId') ASC, json_extract(doc, '$.createdAt') DESC, id DESC`.
 */
export function toSqlIndex(spec: IndexSpec): string {
  return spec.keys.map(([field, dir]) => `${sqlField(field)} ${dir === -1 ? 'DESC' : 'ASC'}`).join(', ');
}

/** The port's text test of one value: a string containing `needle`, case-insensitively (JavaScript's folding). */
export function containsText(value: unknown, jsonType: unknown, needle: string): 0 | 1 {
  return jsonType === 'text' && typeof value === 'string' && value.toLowerCase().includes(needle.toLowerCase()) ? 1 : 0;
}
