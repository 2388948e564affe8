import type pg from 'pg'
import { prepared } from './index.ts'

/**
 * One page of a list and the list's whole count, in one statement: the count is a subquery run
 * once, so that only the page's rows are joined and read out. A page past the end asks for the
 * count alone. `select` starts with `select` and ends with its joins, before any `where`.
 */
export async function fetchPage<Row extends object>(
  pool: Pick<pg.Pool, 'query'>,
  query: { select: string; counted: string; where: string; order: string },
  values: unknown[],
  paging: { page: number; page_size: number },
): Promise<{ count: number; rows: Row[] }> {
  const counting = `select count(*) from ${query.counted} where ${query.where}`
  const select = query.select.replace(/^\s*select\s/i, `select (${counting}) as total_count, `)
  const { rows } = await pool.query<Row & { total_count: number }>(
    prepared(
      `${select} where ${query.where} order by ${query.order}
      limit $${values.length + 1} offset $${values.length + 2}`,
      [...values, paging.page_size, (paging.page - 1) * paging.page_size],
    ),
  )
  let count = Number(rows[0]?.total_count ?? 0)
  if (rows.length === 0 && paging.page > 1) {
    const counted = await pool.query<{ count: number }>(counting, values)
    count = Number(counted.rows[0]?.count ?? 0)
  }
  return { count, rows }
}

/** `fetchPage` as a list answers it: the whole count and the page's rows, each turned by `toResult`. */
export async function listPage<Row extends object, Result>(
  pool: Pick<pg.Pool, 'query'>,
  query: { select: string; counted: string; where: string; order: string },
  values: unknown[],
  paging: { page: number; page_size: number },
  toResult: (row: Row) => Result,
): Promise<{ count: number; results: Result[] }> {
  const { count, rows } = await fetchPage<Row>(pool, query, values, paging)
  return { count, results: rows.map(toResult) }
}
