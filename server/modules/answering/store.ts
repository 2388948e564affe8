import type { PassageLocation } from '../../../contract/knowledge.ts'
import type { Embedder } from '../../answering/embeddings.ts'
import type { LlmUsage } from '../../answering/llm.ts'
import { PassageIndex } from '../../answering/passage-index.ts'
import { SYNONYMS } from '../../answering/text.ts'
import { tsLexeme } from '../../answering/tsquery.ts'
import { filePassageHit, type PassageHit } from '../../answering/types.ts'
import type { Database } from '../../db/index.ts'
import type { Logger } from '../../logger.ts'
import { dataItemHit } from './library-store.ts'

export { type AnsweredRowDb, answerOfRow, dataItemHit, loadLibrary } from './library-store.ts'

/**
 * Everything answering reads from and writes to the database, in one place: the library, the
 * passages (by words, and by meaning when an embedding model is configured), the in-memory index
 * of a generation job, passage vectors and the language model's token usage. The engines in
 * server/answering never touch the database: they are handed what this module loads.
 * Every statement carries the requesting organisation (LL1, LL4).
 */

/** A passage of a ready file as the searches read it, with its file's name. */
interface PassageRow {
  id: string
  file_id: string
  name: string
  text: string
  location: PassageLocation
}

/** The question's words as one OR tsquery, with the other forms of any synonym it uses. */
async function passageQuery(database: Database, text: string) {
  const lower = text.toLowerCase()
  const extra: string[] = []
  for (const group of SYNONYMS) {
    const forms = group.slice(1)
    if (forms.some((form) => lower.includes(form)) || lower.includes(group[0] as string))
      extra.push(...forms.filter((form) => form.length > 3).slice(0, 4))
  }
  const { rows } = await database.pool.query<{ lexemes: string[] }>(
    "select tsvector_to_array(to_tsvector('english', $1)) as lexemes",
    [`${text} ${extra.join(' ')}`],
  )
  const lexemes = (rows[0]?.lexemes ?? []).slice(0, 10).map(tsLexeme)
  if (lexemes.length <= 2) return lexemes.join(' & ')
  // any two of the question's words together: a passage that shares one word is no evidence, and
  // a query of single words would match (and rank) most of a large corpus
  const pairs: string[] = []
  for (let i = 0; i < lexemes.length; i++)
    for (let j = i + 1; j < lexemes.length; j++) pairs.push(`(${lexemes[i]} & ${lexemes[j]})`)
  return pairs.join(' | ')
}

/** Passages ranked per search; more matches than this are cut before ranking. */
const CANDIDATES = 400

/** Document passages and data items for a question, ranks fused (reciprocal rank fusion). */
export async function searchPassages(
  database: Database,
  orgId: number,
  text: string,
  options: { limit?: number; fileIds?: number[] } = {},
): Promise<PassageHit[]> {
  const query = await passageQuery(database, text)
  if (!query) return []
  const limit = options.limit ?? 12
  const fileFilter = options.fileIds?.length ? 'and p.file_id = any($4::bigint[])' : ''
  const values: unknown[] = [orgId, query, limit]
  if (options.fileIds?.length) values.push(options.fileIds)
  const [files, data] = await Promise.all([
    database.pool.query<PassageRow & { rank: number }>(
      `with q as (select to_tsquery('english', $2) as query),
            candidates as (
              select p.id from file_passages p, q
               where p.org_id = $1 and p.tsv @@ q.query and p.qa_question is null ${fileFilter}
               limit ${CANDIDATES}
            )
       select p.id, p.file_id, f.name, p.text, p.location, ts_rank_cd(p.tsv, q.query, 1) as rank
         from candidates c join file_passages p on p.id = c.id
         join repository_files f on f.id = p.file_id and f.status = 'ready', q
        order by rank desc limit $3`,
      values,
    ),
    options.fileIds?.length
      ? Promise.resolve({ rows: [] })
      : database.pool.query<{ id: string; title: string; value: string; rank: number }>(
          `select d.id, d.title, d.value, ts_rank_cd(d.tsv, q, 1) as rank
             from kb_data_items d, to_tsquery('english', $2) q
            where d.org_id = $1 and d.tsv @@ q order by rank desc limit $3`,
          [orgId, query, limit],
        ),
  ])
  const fused = new Map<string, PassageHit & { fused: number }>()
  const add = (key: string, hit: PassageHit, position: number) => {
    const current = fused.get(key)
    const score = 1 / (60 + position)
    if (current) current.fused += score
    else fused.set(key, { ...hit, fused: score })
  }
  files.rows.forEach((row, position) => {
    add(`f${row.id}`, filePassageHit(row, row.rank), position)
  })
  data.rows.forEach((row, position) => {
    add(`d${row.id}`, { ...dataItemHit(row), rank: row.rank }, position)
  })
  return [...fused.values()].sort((a, b) => b.fused - a.fused).slice(0, limit)
}

/**
 * The organisation's passages and data items, with their vectors from `embeddingModel` if any;
 * `publicOnly` (issue 40): the passages of files published on its trust centre, nothing else.
 */
export async function loadPassageIndex(
  database: Database,
  orgId: number,
  embeddingModel?: string,
  options: { publicOnly?: boolean } = {},
) {
  const onlyPublic = options.publicOnly === true
  const [files, data] = await Promise.all([
    database.pool.query<PassageRow & { embedding: number[] | null }>(
      `select p.id, p.file_id, f.name, p.text, p.location,
              case when $2::text is not null and p.embedding_model = $2 then p.embedding end as embedding
         from file_passages p join repository_files f on f.id = p.file_id and f.status = 'ready'
        where p.org_id = $1 and p.qa_question is null
          and ($3::boolean is false or f.trust_visibility = 'public')`,
      [orgId, embeddingModel ?? null, onlyPublic],
    ),
    database.pool.query<{ id: string; title: string; value: string }>(
      'select id, title, value from kb_data_items where org_id = $1 and not $2::boolean',
      [orgId, onlyPublic],
    ),
  ])
  return new PassageIndex(
    [...files.rows.map((row) => filePassageHit(row, 0)), ...data.rows.map(dataItemHit)],
    files.rows.map((row) => (row.embedding ? Float32Array.from(row.embedding.map(Number)) : null)),
  )
}

/**
 * Gives a vector to every passage of the organisation (or of one file) that has none from this
 * model. Returns how many were embedded. A model that fails leaves the passages as they were:
 * they are still found by their words, and the next run tries again.
 */
export async function embedMissing(
  database: Database,
  embedder: Embedder,
  logger: Logger,
  scope: { orgId: number; fileId?: number },
): Promise<number> {
  const values: unknown[] = [scope.orgId, embedder.name]
  if (scope.fileId !== undefined) values.push(scope.fileId)
  let done = 0
  for (;;) {
    const { rows } = await database.pool.query<{ id: string; text: string }>(
      `select id, text from file_passages
        where org_id = $1 and qa_question is null
          and (embedding is null or embedding_model is distinct from $2)
          ${scope.fileId !== undefined ? 'and file_id = $3' : ''}
        order by id limit 512`,
      values,
    )
    if (!rows.length) return done
    let vectors: Float32Array[]
    try {
      vectors = await embedder.embed(rows.map((row) => row.text))
    } catch (error) {
      logger.warn({ err: String(error), ...scope }, 'embedding failed; passages stay lexical')
      return done
    }
    await database.pool.query(
      `update file_passages p set embedding = t.embedding::real[], embedding_model = $3
         from (select unnest($1::bigint[]) as id, unnest($2::text[]) as embedding) t
        where p.id = t.id and p.org_id = $4`,
      [
        rows.map((row) => row.id),
        vectors.map((vector) => `{${Array.from(vector).join(',')}}`),
        embedder.name,
        scope.orgId,
      ],
    )
    done += rows.length
  }
}

/**
 * Whether the database has pgvector: its inner-product operator then ranks the passages (in C,
 * over the stored arrays cast to vectors); otherwise a dot product over real[] in plain SQL.
 * The extension is used where an administrator installed it or where it can be created; it is
 * looked up once per database.
 */
const pgvector = new WeakMap<Database, Promise<boolean>>()

export function hasPgvector(database: Database): Promise<boolean> {
  let known = pgvector.get(database)
  if (!known) {
    known = (async () => {
      const { rows } = await database.pool.query<{ installed: boolean; available: boolean }>(
        `select exists (select 1 from pg_extension where extname = 'vector') as installed,
                exists (select 1 from pg_available_extensions where name = 'vector') as available`,
      )
      if (rows[0]?.installed) return true
      if (!rows[0]?.available) return false
      try {
        await database.pool.query('create extension if not exists vector')
        return true
      } catch {
        return false // not allowed to create it: plain SQL it is
      }
    })().catch(() => false)
    pgvector.set(database, known)
  }
  return known
}

/** Passages closest to a vector, computed in SQL (single calls: regenerate, section operations). */
export async function semanticSearch(
  database: Database,
  orgId: number,
  embedder: Embedder,
  vector: Float32Array,
  options: { limit?: number; fileIds?: number[] } = {},
): Promise<PassageHit[]> {
  const values: unknown[] = [
    orgId,
    embedder.name,
    `{${Array.from(vector).join(',')}}`,
    options.limit ?? 12,
  ]
  if (options.fileIds?.length) values.push(options.fileIds)
  const score = (await hasPgvector(database))
    ? // <#> is the negative inner product; vectors of one model share their dimension
      '-(p.embedding::vector <#> $3::real[]::vector)'
    : '(select sum(a * b) from unnest(p.embedding, $3::real[]) as v(a, b))'
  const { rows } = await database.pool.query<{
    id: string
    file_id: string
    name: string
    text: string
    location: PassageLocation
    score: number
  }>(
    `select p.id, p.file_id, f.name, p.text, p.location, ${score} as score
       from file_passages p join repository_files f on f.id = p.file_id and f.status = 'ready'
      where p.org_id = $1 and p.embedding_model = $2 and p.qa_question is null
        ${options.fileIds?.length ? 'and p.file_id = any($5::bigint[])' : ''}
      order by score desc limit $4`,
    values,
  )
  return rows.map((row) => filePassageHit(row, Number(row.score)))
}

/** The language model's token usage per organisation and day (its daily budget). */
export function llmUsage(database: Database): LlmUsage {
  return {
    async spend(orgId, tokens) {
      await database.pool.query(
        `insert into llm_usage (org_id, day, tokens) values ($1, current_date, $2)
         on conflict (org_id, day) do update set tokens = llm_usage.tokens + excluded.tokens`,
        [orgId, tokens],
      )
    },
    async tokensToday(orgId) {
      const { rows } = await database.pool.query<{ tokens: string }>(
        'select tokens from llm_usage where org_id = $1 and day = current_date',
        [orgId],
      )
      return Number(rows[0]?.tokens ?? 0)
    },
  }
}
