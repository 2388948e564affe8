import { MockEmbeddingModelV4, MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { fuse } from '../../../server/answering/embeddings.ts'
import { hasPgvector } from '../../../server/modules/answering/store.ts'
import { get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, member, modelReply, questionnaire, settle, uploadFile } from './helpers.ts'

const Q = paths.questionnaires

/**
 * Embeddings through the real code path with the AI SDK's mock embedding model. The mock places a
 * text by the ideas it names, so that a passage and a question that share an idea but not one word
 * are close, as they would be with a real model; the mock language model records the evidence it
 * was given.
 */
const IDEAS = [
  /laptop|workstation|computer|endpoint/i,
  /encrypt|bitlocker|filevault|veracrypt|disk/i,
  /backup|restore/i,
  /visitor|badge|reception/i,
]
let embeddingFails = false
const embedded: string[] = []
const embeddingModel = new MockEmbeddingModelV4({
  modelId: 'mock-ideas',
  doEmbed: async ({ values }) => {
    if (embeddingFails) throw new Error('embedding endpoint unavailable')
    embedded.push(...values)
    return {
      embeddings: values.map((text) => [...IDEAS.map((idea) => (idea.test(text) ? 1 : 0)), 0.05]),
      warnings: [],
    }
  },
})
const prompts: string[] = []
const model = new MockLanguageModelV4({
  doGenerate: async (options) => {
    prompts.push(JSON.stringify(options.prompt))
    return modelReply(
      { answer: 'Company laptops are encrypted.', choice: 'Yes', confidence: 0.7, cited: [1] },
      { input: 500, output: 20 },
    )
  },
})

const ctx = withTestApp({ jobs: true, llmModel: model, embeddingModel })

const vectorsOf = async (fileId: number) =>
  (
    await ctx.database.pool.query<{ embedding: number[] | null; embedding_model: string | null }>(
      'select embedding, embedding_model from file_passages where file_id = $1',
      [fileId],
    )
  ).rows

const QUESTION = 'Are staff workstations protected by full-disk encryption?'
const PASSAGE = 'Every company laptop runs BitLocker or FileVault before it is handed out.'

describe('embeddings (EMBEDDING_MODEL)', () => {
  it('stores a unit vector per passage and finds evidence that shares no word with the question', async () => {
    const user = await member(ctx)
    const fileId = await uploadFile(
      ctx,
      user.token,
      'endpoints.txt',
      `${PASSAGE}\n\nVisitors sign in at reception and wear a badge.`,
    )
    // the file is ready (searchable by its words) first; its vectors follow just after
    await expect
      .poll(async () => (await vectorsOf(fileId)).every((row) => row.embedding_model), {
        timeout: 10_000,
      })
      .toBe(true)
    const rows = await vectorsOf(fileId)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.embedding_model).toBe('mock-ideas')
      const norm = Math.sqrt((row.embedding ?? []).reduce((sum, v) => sum + v * v, 0))
      expect(norm).toBeCloseTo(1, 3)
    }
    // another organisation's passage on the same idea is never evidence (LL1)
    const stranger = await member(ctx)
    await uploadFile(
      ctx,
      stranger.token,
      'theirs.txt',
      'Their laptops use VeraCrypt for disk encryption.',
    )

    const q = await questionnaire(ctx, user.token, [QUESTION])
    prompts.length = 0
    await post(ctx, Q.generate(q.id), {}, user.token)
    await settle(ctx, user.token, q.id)
    // the job compared vectors in memory: the passage reached the model as evidence
    expect(prompts.some((prompt) => prompt.includes('BitLocker'))).toBe(true)
    expect(prompts.some((prompt) => prompt.includes('VeraCrypt'))).toBe(false)
    const [row] = (await get(ctx, Q.answers(q.id), user.token)).body.questions as Body[]
    expect(row.answer).toMatchObject({ status: 'generated', choice: 'Yes' })
    expect(row.answer.citations[0]).toMatchObject({ source: 'file', id: fileId })

    // a single regeneration compares them in SQL
    prompts.length = 0
    const regenerated = await post(ctx, Q.answer.regenerate(row.answer.id), {}, user.token)
    expect(regenerated.status, JSON.stringify(regenerated.body)).toBe(200)
    expect(prompts.some((prompt) => prompt.includes('BitLocker'))).toBe(true)
    expect(prompts.some((prompt) => prompt.includes('VeraCrypt'))).toBe(false)
    // in SQL with pgvector's operator where the server offers the extension, else over real[]
    const { rows: offered } = await ctx.database.pool.query(
      "select 1 from pg_available_extensions where name = 'vector'",
    )
    expect(await hasPgvector(ctx.database)).toBe(offered.length > 0)
  })

  it('a failing model leaves files ready and answers by words; the next generation fills in the vectors', async () => {
    const user = await member(ctx)
    embeddingFails = true
    const fileId = await uploadFile(
      ctx,
      user.token,
      'backups.txt',
      'Backups are encrypted and restored in a test every quarter.',
    )
    expect((await vectorsOf(fileId)).every((row) => row.embedding === null)).toBe(true)
    const q = await questionnaire(ctx, user.token, [
      'Are backups restored in a test every quarter?',
    ])
    prompts.length = 0
    await post(ctx, Q.generate(q.id), {}, user.token)
    await settle(ctx, user.token, q.id)
    // found by its words
    expect(prompts.some((prompt) => prompt.includes('restored in a test'))).toBe(true)
    expect((await vectorsOf(fileId)).every((row) => row.embedding === null)).toBe(true)

    embeddingFails = false
    await post(ctx, Q.generate(q.id), {}, user.token)
    await settle(ctx, user.token, q.id)
    expect((await vectorsOf(fileId)).every((row) => row.embedding_model === 'mock-ideas')).toBe(
      true,
    )
  })
})

describe('rank fusion', () => {
  const hit = (id: number) => ({
    id,
    fileId: 1,
    source: 'file' as const,
    title: 'f',
    text: `passage ${id}`,
    location: null,
    rank: 0,
  })
  it('puts a passage both rankings find above those only one finds, and keeps each once', () => {
    const fused = fuse(
      [
        [hit(1), hit(2), hit(3)],
        [hit(4), hit(3), hit(5)],
      ],
      10,
    )
    expect(fused[0]?.id).toBe(3)
    expect(fused.map((item) => item.id).sort()).toEqual([1, 2, 3, 4, 5])
    expect(fuse([[hit(1), hit(2)], []], 1).map((item) => item.id)).toEqual([1])
  })
})
