import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { type EmbeddingModel, embedMany } from 'ai'
import type { PassageHit } from './types.ts'

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
