import type { SearchResult } from '../../../contract/knowledge.ts'
import { EMPTY_TSQUERY, tsLexeme } from '../../answering/tsquery.ts'
import { escaped, HEADLINE, type KnowledgeDeps, RANK_CANDIDATES } from './shared.ts'

/**
 * Search over passages, Q&A items and data items, ranked together; the knowledge's stamp names its state for cached searches.
 */
type LibraryKind = 'qa' | 'data'

/**
 * The two library tables, searched alike: full text over both columns, trigram similarity on the
 * title-like one. `between` joins them in the snippet, `joined` in the result's text.
 */
const LIBRARY_TABLES: Record<
  LibraryKind,
  { table: string; title: string; body: string; between: string; joined: string }
> = {
  qa: { table: 'kb_qa_items', title: 'question', body: 'answer', between: ' — ', joined: '\n' },
  data: { table: 'kb_data_items', title: 'title', body: 'value', between: ': ', joined: ': ' },
}

export function createSearch(deps: KnowledgeDeps) {
  const { pool } = deps.database

  /* ------------------------------------------------------------ Q&A items */

  /**
   * The query's words as tsqueries from strict to loose: all words, then all but one (for three
   * words or more), then any word. Lexemes come from PostgreSQL's own parser, so stemming and stop
   * words match the index.
   */
  async function relaxedQueries(text: string): Promise<string[]> {
    const { rows } = await pool.query<{ lexemes: string[] }>(
      "select tsvector_to_array(to_tsvector('english', $1)) as lexemes",
      [text],
    )
    const lexemes = (rows[0]?.lexemes ?? []).slice(0, 12).map(tsLexeme)
    if (!lexemes.length) return []
    const variants = [lexemes.join(' & ')]
    if (lexemes.length >= 3 && lexemes.length <= 8) {
      variants.push(
        lexemes
          .map((_, skip) => `(${lexemes.filter((__, i) => i !== skip).join(' & ')})`)
          .join(' | '),
      )
    }
    if (lexemes.length >= 2) variants.push(lexemes.join(' | '))
    return variants
  }

  /**
   * What names the state of an organisation's knowledge, in one read over three indexed counts:
   * every write to a file, Q&A item or data item moves its updated_at, and every delete its count
   * (a key for cached searches).
   */
  async function stamp(orgId: number) {
    const { rows } = await pool.query<{ files: string; qa: string; data: string }>(
      `select (select count(*) || '@' || coalesce(max(updated_at)::text, '') from repository_files where org_id = $1) as files,
              (select count(*) || '@' || coalesce(max(updated_at)::text, '') from kb_qa_items where org_id = $1) as qa,
              (select count(*) || '@' || coalesce(max(updated_at)::text, '') from kb_data_items where org_id = $1) as data`,
      [orgId],
    )
    return rows[0]
  }

  /** Passages of ready files matching a tsquery, best first. */
  async function searchPassages(orgId: number, tsqText: string, limit: number) {
    const { rows } = await pool.query<{
      id: string
      file_id: string
      text: string
      location: Record<string, unknown>
      name: string
      kind: SearchResult['source']['kind']
      rank: number
      snippet: string
    }>(
      `with q as (select $2::tsquery as query),
   candidates as (
     -- a very common query matches most passages: rank a bounded set (p95 budget)
     select p.id, p.file_id, p.text, p.location, p.tsv, q.query
       from file_passages p, q
      where p.org_id = $1 and p.tsv @@ q.query
        and exists (select 1 from repository_files f where f.id = p.file_id and f.status = 'ready')
      limit $4::int),
   hits as (
     select c.id, c.file_id, c.text, c.location, ts_rank_cd(c.tsv, c.query, 32) as rank, c.query
       from candidates c order by rank desc limit $3)
   select h.id, h.file_id, h.text, h.location, f.name, f.kind, h.rank,
          ts_headline('english', ${escaped('h.text')}, h.query, ${HEADLINE}) as snippet
     from hits h join repository_files f on f.id = h.file_id order by h.rank desc`,
      [orgId, tsqText, limit, RANK_CANDIDATES],
    )
    return rows.map(
      (row): SearchResult => ({
        id: `passage:${row.id}`,
        kind: 'passage',
        text: row.text,
        snippet: row.snippet,
        score: row.rank / (row.rank + 0.1),
        file_id: Number(row.file_id),
        item_id: null,
        source: {
          name: row.name,
          kind: row.kind,
          location: row.location as SearchResult['source']['location'],
        },
      }),
    )
  }

  /**
   * Q&A or data items matching a tsquery, or whose question or title is like the text (trigram),
   * best first.
   */
  async function searchItems(
    kind: LibraryKind,
    orgId: number,
    text: string,
    tsqText: string,
    limit: number,
  ): Promise<SearchResult[]> {
    const { table, title, body, between, joined } = LIBRARY_TABLES[kind]
    const { rows } = await pool.query<{
      id: string
      title: string
      body: string
      rank: number
      snippet: string
    }>(
      `with q as (select $4::tsquery as query)
     select i.id, i.${title} as title, i.${body} as body,
            greatest(ts_rank_cd(i.tsv, q.query, 32) / (ts_rank_cd(i.tsv, q.query, 32) + 0.1), similarity(i.${title}, $2)) as rank,
            ts_headline('english', ${escaped(`i.${title} || '${between}' || i.${body}`)}, q.query, ${HEADLINE}) as snippet
       from ${table} i, q
      where i.org_id = $1 and (i.tsv @@ q.query or i.${title} % $2)
      order by rank desc limit $3`,
      [orgId, text, limit, tsqText],
    )
    return rows.map((row) => ({
      id: `${kind}:${row.id}`,
      kind,
      text: `${row.title}${joined}${row.body}`,
      snippet: row.snippet,
      score: row.rank,
      file_id: null,
      item_id: Number(row.id),
      source: { name: row.title, kind: null, location: null },
    }))
  }

  /**
   * Passages of ready files, Q&A items and data items, ranked together. Full text first with
   * every word required, then any word; trigram similarity on questions and titles catches typos.
   * Scores are normalised to 0..1 (rank / (rank + 1), or the similarity) and merged.
   */
  async function search(
    orgId: number,
    query: { q: string; source: 'all' | 'files' | 'qa' | 'data'; limit: number },
  ) {
    const want = (kind: 'files' | 'qa' | 'data') => query.source === 'all' || query.source === kind
    const limit = query.limit
    const tsQueries = await relaxedQueries(query.q)
    // trigram matching on questions and titles still runs when the text has no searchable words
    // (the empty tsquery, which matches nothing; the text "''" would be a tsquery syntax error)
    if (!tsQueries.length) tsQueries.push(EMPTY_TSQUERY)
    let results: SearchResult[] = []
    for (const tsqText of tsQueries) {
      const tasks: Promise<SearchResult[]>[] = []
      if (want('files')) tasks.push(searchPassages(orgId, tsqText, limit))
      for (const kind of ['qa', 'data'] as const)
        if (want(kind)) tasks.push(searchItems(kind, orgId, query.q, tsqText, limit))
      results = (await Promise.all(tasks)).flat()
      if (results.length) break
    }
    results.sort((a, b) => b.score - a.score)
    return results
      .slice(0, limit)
      .map((r) => ({ ...r, score: Math.round(Math.min(1, Math.max(0, r.score)) * 1000) / 1000 }))
  }

  return { stamp, search }
}

export type Search = ReturnType<typeof createSearch>
