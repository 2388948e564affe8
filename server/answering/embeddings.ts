import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { type EmbeddingModel, embedMany } from 'ai'
import type { PassageLocation } from '../../contract/knowledge.ts'
import type { Database } from '../db/index.ts'
import type { Logger } from '../logger.ts'
import { filePassageHit, type PassageHit } from './engine.ts'

/**
 * Optional embeddings (EMBEDDING_MODEL on an OpenAI-compatible endpoint): every document passage
 * gets a vector, stored with it (file_passages.embedding, unit length, with the model's name), so
 * that retrieval also finds passages that say the same thing in other words. Vectors are compared
 * in SQL for single calls (pgvector's operator where the extension is present, else a dot product
 * over real[], enough at a repository's size) and in memory for a generation job. Without a model nothing changes:
 * retrieval stays lexical. Passages are read with the requester's organisation only (LL1, LL4).
 */

export interface EmbeddingSettings {
  baseUrl: string
  apiKey?: string
  model: string
}

export interface EmbeddingOptions {
  settings?: EmbeddingSettings
  /** A model in tests (the SDK's mock). */
  model?: EmbeddingModel
}

export interface Embedder {
  /** The model's name, stored with each vector: vectors of another model are not compared. */
  name: string
  /** Unit-length vectors, one per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>
}

/** Texts per request: providers cap a call's inputs (OpenAI at 2,048; local servers far lower). */
const BATCH = 64
/** Characters of a passage sent to the model: passages are short, this only bounds the odd one. */
const MAX_CHARS = 4_000

export function createEmbedder(options: EmbeddingOptions | undefined): Embedder | undefined {
  if (!options?.model && !options?.settings) return undefined
  const model =
    options.model ??
    createOpenAICompatible({
      name: 'embeddings',
      baseURL: (options.settings as EmbeddingSettings).baseUrl,
      apiKey: options.settings?.apiKey,
    }).embeddingModel((options.settings as EmbeddingSettings).model)
  const name =
    options.settings?.model ?? (typeof model === 'string' ? model : (model.modelId ?? 'model'))
  return {
    name,
    async embed(texts) {
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += BATCH) {
        const { embeddings } = await embedMany({
          model,
          values: texts.slice(start, start + BATCH).map((text) => text.slice(0, MAX_CHARS)),
          maxRetries: 2,
        })
        for (const values of embeddings) vectors.push(unit(values))
      }
      return vectors
    },
  }
}

function unit(values: number[]): Float32Array {
  let norm = 0
  for (const value of values) norm += value * value
  norm = Math.sqrt(norm) || 1
  return Float32Array.from(values, (value) => value / norm)
}

export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length)
  let sum = 0
  for (let i = 0; i < n; i++) sum += (a[i] as number) * (b[i] as number)
  return sum
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

/** Two rankings of passages as one (reciprocal rank fusion), best first. */
export function fuse(lists: PassageHit[][], limit: number): PassageHit[] {
  const fused = new Map<string, { hit: PassageHit; score: number }>()
  for (const list of lists) {
    list.forEach((hit, position) => {
      const key = `${hit.source}${hit.id}`
      const current = fused.get(key)
      const score = 1 / (60 + position)
      if (current) current.score += score
      else fused.set(key, { hit, score })
    })
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((item) => item.hit)
}
