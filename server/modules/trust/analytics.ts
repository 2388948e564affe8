import type pg from 'pg'
import type { TrustAnalytics, TrustItems } from '../../../contract/trust.ts'
import type { Database } from '../../db/index.ts'

/**
 * The trust centre's administration reads (issue 40): what of the repository and the library can
 * go on the page, each with its place on it; and the page's figures over the last days (views,
 * requests, approvals, downloads; per document and per requesting company).
 */

/** Files and Q&A items listed at most, each. */
const ITEMS_MAX = 500
/** Companies listed at most. */
const COMPANIES_MAX = 20
/** Documents listed at most. */
const DOCUMENTS_MAX = 100
const DAY_MS = 86_400_000

export const DEFAULT_ANALYTICS_DAYS = 30

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

export function createTrustAdmin(deps: { database: Database; now?: () => Date }) {
  const pool: pg.Pool = deps.database.pool
  const now = deps.now ?? (() => new Date())

  /** GET trust/items/: the organisation's files by name, its library's answers by question. */
  async function items(orgId: number): Promise<TrustItems> {
    const [files, qa] = await Promise.all([
      pool.query<{ id: string; name: string; size_bytes: string; trust_visibility: string }>(
        `select id, name, size_bytes, trust_visibility from repository_files
          where org_id = $1 order by lower(name), id limit $2`,
        [orgId, ITEMS_MAX],
      ),
      pool.query<{ id: string; question: string; answer: string; trust_visibility: string }>(
        `select id, question, answer, trust_visibility from kb_qa_items
          where org_id = $1 order by lower(question), id limit $2`,
        [orgId, ITEMS_MAX],
      ),
    ])
    return {
      files: files.rows.map((row) => ({
        id: Number(row.id),
        name: row.name,
        size: Number(row.size_bytes),
        visibility: row.trust_visibility as TrustItems['files'][number]['visibility'],
      })),
      qa: qa.rows.map((row) => ({
        id: Number(row.id),
        question: row.question,
        answer: row.answer,
        visibility: row.trust_visibility as TrustItems['qa'][number]['visibility'],
      })),
    }
  }

  /**
   * GET trust/analytics/?days=N: the last N UTC days, today included. Approvals count when access
   * was granted (a grant revoked since still counts on its day); downloads of a company are those
   * made with its requests' reader sessions; companies are told apart ignoring case and spaces
   * around, and named as their latest request spells them.
   */
  async function analytics(orgId: number, days: number): Promise<TrustAnalytics> {
    const today = Math.floor(now().getTime() / DAY_MS)
    // days as dates, and the same bounds as moments (UTC midnights) for the timestamps
    const since = new Date((today - days + 1) * DAY_MS)
    const until = new Date((today + 1) * DAY_MS)
    // the series: $2 and $3 the days, $4 and $5 the moments; the lists: $2 and $3 the moments
    const period = [orgId, isoDay(today - days + 1), isoDay(today + 1), since, until]
    const moments = [orgId, since, until]
    const inPeriod = (column: string, from = '$2', to = '$3') =>
      `${column} >= ${from} and ${column} < ${to}`
    const perDay = (table: string, column: string) =>
      `select (${column} at time zone 'utc')::date as day, count(*)::int as n from ${table}
        where org_id = $1 and ${inPeriod(column, '$4', '$5')} group by 1`
    const [series, documents, companies] = await Promise.all([
      pool.query<{
        day: string
        views: number
        requests: number
        approvals: number
        downloads: number
      }>(
        `with days as (
           select d::date as day
             from generate_series($2::timestamp, $3::timestamp - interval '1 day', interval '1 day') d),
         views as (
           select day, views from trust_page_views
            where org_id = $1 and day >= $2::date and day < $3::date),
         asked as (${perDay('trust_requests', 'created_at')}),
         granted as (${perDay('trust_requests', 'approved_at')}),
         fetched as (${perDay('trust_downloads', 'created_at')})
         select to_char(days.day, 'YYYY-MM-DD') as day,
                coalesce(views.views, 0)::int as views, coalesce(asked.n, 0) as requests,
                coalesce(granted.n, 0) as approvals, coalesce(fetched.n, 0) as downloads
           from days
           left join views on views.day = days.day
           left join asked on asked.day = days.day
           left join granted on granted.day = days.day
           left join fetched on fetched.day = days.day
          order by days.day`,
        period,
      ),
      pool.query<{ id: string; name: string | null; downloads: number; readers: number }>(
        `select d.file_id as id, f.name, count(*)::int as downloads,
                count(distinct d.email)::int as readers
           from trust_downloads d
           left join repository_files f on f.id = d.file_id and f.org_id = d.org_id
          where d.org_id = $1 and d.file_id is not null and ${inPeriod('d.created_at')}
          group by d.file_id, f.name
          order by downloads desc, readers desc, f.name, d.file_id
          limit $4`,
        [...moments, DOCUMENTS_MAX],
      ),
      pool.query<{ company: string; requests: number; approvals: number; downloads: number }>(
        `with named as (
           select r.id, r.created_at, r.approved_at, btrim(r.company) as company,
                  regexp_replace(lower(btrim(r.company)), '\\s+', ' ', 'g') as key,
                  (select count(*) from trust_downloads d
                    where d.request_id = r.id and ${inPeriod('d.created_at')})::int as downloads
             from trust_requests r where r.org_id = $1),
         counted as (
           select (array_agg(company order by created_at desc, id desc))[1] as company,
                  (count(*) filter (where ${inPeriod('created_at')}))::int as requests,
                  (count(*) filter (where ${inPeriod('approved_at')}))::int as approvals,
                  sum(downloads)::int as downloads
             from named group by key)
         select company, requests, approvals, downloads from counted
          where requests + approvals + downloads > 0
          order by requests desc, approvals desc, downloads desc, lower(company)
          limit $4`,
        [...moments, COMPANIES_MAX],
      ),
    ])
    const totals = { views: 0, requests: 0, approvals: 0, downloads: 0 }
    for (const row of series.rows) {
      totals.views += row.views
      totals.requests += row.requests
      totals.approvals += row.approvals
      totals.downloads += row.downloads
    }
    return {
      days,
      series: series.rows,
      totals,
      documents: documents.rows.map((row) => ({
        id: Number(row.id),
        name: row.name ?? 'A deleted document',
        downloads: row.downloads,
        readers: row.readers,
      })),
      companies: companies.rows,
    }
  }

  return { items, analytics }
}

export type TrustAdmin = ReturnType<typeof createTrustAdmin>
