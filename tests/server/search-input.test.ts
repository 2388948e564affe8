/**
 * Issue 14 fix 7: every string a user can type into a search box or a filter searches. `q=(`, `'`,
 * `&`, `:*`, emoji and the like answer 200 with the list's usual shape; only a NUL byte (PostgreSQL
 * text cannot hold one) and text over the parameter's length answer 400, in plain words. Never 500.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as z from 'zod/mini'
import {
  dataItemListSchema,
  MAX_TAG_LENGTH,
  qaItemListSchema,
  repositoryFileListSchema,
  searchQuerySchema,
  searchResponseSchema,
} from '../../contract/knowledge.ts'
import { paths } from '../../contract/paths.ts'
import { answersResponseSchema, questionnaireListSchema } from '../../contract/questionnaires.ts'
import { TEXT_INPUT_TEXTS } from '../../contract/text.ts'
import { createKnowledgeService } from '../../server/modules/knowledge/service.ts'
import { get, insertUser, post, signIn, type TestApp } from './auth/helpers.ts'
import { createTestApp } from './support.ts'

let ctx: TestApp
let token = ''
let orgId = 0
let questionnaireId = 0

beforeAll(async () => {
  ctx = await createTestApp()
  const fixture = await insertUser(ctx.database, { role: 'admin' })
  orgId = fixture.orgId
  token = (await signIn(ctx, fixture.email)).access
  // something to find, with the characters the inputs below are made of
  for (const [question, answer, tags] of [
    [
      'Do you encrypt data at rest?',
      'Yes: AES-256 (keys in the KMS) & rotated yearly.',
      ['Encryption'],
    ],
    [
      "What's O'Brien's role?",
      'He owns 100% of the audit_log \\ review. :* <-> !',
      ['People & roles'],
    ],
    ['Do you support emoji 😀 in names?', 'Oui, très bien — ✓', ['i18n 🌍']],
  ] as const) {
    const res = await post(ctx, paths.knowledgeBase.qa, { question, answer, tags }, token)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  const data = await post(
    ctx,
    paths.knowledgeBase.data,
    { title: 'Regions (EU) & backups', value: "Frankfurt 'and' Dublin", tags: ['Hosting'] },
    token,
  )
  expect(data.status).toBe(201)
  // a ready file with a passage, and a questionnaire, written directly: no ingestion needed
  const file = await ctx.database.pool.query<{ id: string }>(
    `insert into repository_files (org_id, name, kind, mime, status, progress, passage_count, tags)
     values ($1, 'Policy (v2) 100%_final.pdf', 'pdf', 'application/pdf', 'ready', 100, 1, '{Policy}')
     returning id`,
    [orgId],
  )
  await ctx.database.pool.query(
    `insert into file_passages (org_id, file_id, ordinal, text) values ($1, $2, 0, $3)`,
    [orgId, file.rows[0]?.id, "Backups are encrypted & tested; the DBA's C:\\backups\\ path."],
  )
  const questionnaire = await ctx.database.pool.query<{ id: string }>(
    `insert into questionnaires (org_id, name, kind, mime, storage_key, status)
     values ($1, 'Vendor (2024) 50% review.xlsx', 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', gen_random_uuid(), 'ready')
     returning id`,
    [orgId],
  )
  questionnaireId = Number(questionnaire.rows[0]?.id)
})
afterAll(async () => {
  await ctx.close()
})

interface TextParam {
  name: string
  path: () => string
  param: string
  max: number
  /** The search box: surrounding space is trimmed and nothing left is a 400. */
  required?: boolean
  schema: z.ZodMiniType
}

/** A list's text filter `q` (up to `max`) and its tag filter. */
const listFilters = (
  name: string,
  path: () => string,
  max: number,
  schema: z.ZodMiniType,
): TextParam[] => [
  { name: `${name} q`, path, param: 'q', max, schema },
  { name: `${name} tag`, path, param: 'tag', max: MAX_TAG_LENGTH, schema },
]

/** Every free-text search or filter parameter of the API. */
const TEXT_PARAMS: TextParam[] = [
  {
    name: 'knowledge-base search q',
    path: () => paths.knowledgeBase.search,
    param: 'q',
    max: 500,
    required: true,
    schema: searchResponseSchema,
  },
  ...listFilters('Q&A list', () => paths.knowledgeBase.qa, 500, qaItemListSchema),
  ...listFilters('data list', () => paths.knowledgeBase.data, 500, dataItemListSchema),
  ...listFilters(
    'knowledge-base files',
    () => paths.knowledgeBase.files,
    200,
    repositoryFileListSchema,
  ),
  ...listFilters('repository', () => paths.files.list, 200, repositoryFileListSchema),
  {
    name: 'questionnaires search',
    path: () => paths.questionnaires.list,
    param: 'search',
    max: 200,
    schema: questionnaireListSchema,
  },
]

/** Every closed-set filter: any other string is a 400, never a 500. */
const CHOICE_PARAMS: { name: string; path: () => string; param: string; valid: string[] }[] = [
  {
    name: 'search source',
    path: () => `${paths.knowledgeBase.search}?q=backups`,
    param: 'source',
    valid: ['all', 'files', 'qa', 'data'],
  },
  ...[paths.files.list, paths.knowledgeBase.files].flatMap((path) => [
    {
      name: `${path} kind`,
      path: () => path,
      param: 'kind',
      valid: ['pdf', 'docx', 'xlsx', 'csv', 'txt', 'md', 'html'],
    },
    {
      name: `${path} status`,
      path: () => path,
      param: 'status',
      valid: ['queued', 'processing', 'ready', 'failed'],
    },
    {
      name: `${path} ordering`,
      path: () => path,
      param: 'ordering',
      valid: ['-created_at', 'created_at', 'name', '-name', 'size', '-size'],
    },
  ]),
  {
    name: 'answers filter',
    path: () => paths.questionnaires.answers(questionnaireId),
    param: 'filter',
    valid: ['all', 'unanswered', 'low_confidence', 'needs_review', 'approved'],
  },
]

/** The listed inputs of the issue, and their neighbours. */
const TRICKY = [
  '(',
  ')',
  "'",
  "''",
  '&',
  '|',
  '!',
  ':*',
  'a:*',
  ':',
  '<->',
  '<2>',
  '"',
  '"unterminated',
  '\\',
  'C:\\backups\\',
  'foo\\',
  '%',
  '_',
  '100%_',
  '*',
  '-',
  'or',
  'and not',
  '😀',
  '👩🏽‍💻 🇪🇺',
  'é',
  'ﬁ',
  '\u00a0',
  '\ufeff',
  '\ufffd',
  '\u200b',
  '\u0001\u001f\u007f',
  'a\tb\nc\r',
  "O'Brien's",
  "backups & ( 'encrypted' | !tested ) :*",
  '%FF',
  '%E0%A4',
  '%ED%A0%80',
  '%',
  '+',
  '&amp;',
  '<mark>',
  'select * from users;--',
]
const NUL_INPUTS = ['\u0000', 'a\u0000b', 'backups\u0000']

/** The value the server receives once the client has encoded it (a lone surrogate becomes U+FFFD). */
const received = (value: string) => value.toWellFormed()

function urlFor(path: string, param: string, value: string) {
  return `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ [param]: value })}`
}

/** Checks one answer: 200 with the list's shape, or 400 in plain words when (and only when) due. */
async function expectAnswer(p: TextParam, value: string) {
  const res = await get(ctx, urlFor(p.path(), p.param, value), token)
  const sent = received(value)
  const text = p.required ? sent.trim() : sent
  const context = `${p.name} = ${JSON.stringify(value)}: ${res.status} ${JSON.stringify(res.body)}`
  if (sent.includes('\u0000')) {
    expect(res.status, context).toBe(400)
    expect(JSON.stringify(res.body), context).toContain(TEXT_INPUT_TEXTS.nul)
  } else if ([...text].length > p.max || (p.required && !text)) {
    // (a character is a code point: an emoji is one of the `max`, as the contract counts)
    expect(res.status, context).toBe(400)
  } else {
    expect(res.status, context).toBe(200)
    const parsed = p.schema.safeParse(res.body)
    expect(parsed.success, `${context} ${parsed.error?.message}`).toBe(true)
  }
  if (res.status === 400) {
    expect(typeof res.body.error, context).toBe('string')
    expect(res.body.error.length, context).toBeGreaterThan(0)
  }
}

/** Strings made of tsquery and LIKE syntax, quotes, escapes, NUL, emoji and surrogate halves. */
const syntaxSoup = fc
  .array(
    fc.constantFrom(
      '(',
      ')',
      "'",
      '"',
      '&',
      '|',
      '!',
      ':*',
      ':',
      '<->',
      '<1>',
      '\\',
      '%',
      '_',
      '*',
      '-',
      ' ',
      'or',
      'not',
      'backups',
      'encrypt',
      "O'Brien",
      '😀',
      'é',
      '\u0000',
      '\ud800',
      '\udc00',
      '%00',
      '%FF',
      '+',
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''))

const anyText = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 2 },
  { arbitrary: syntaxSoup, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary-ascii', minLength: 30, maxLength: 60 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 195, maxLength: 520 }), weight: 1 },
)

describe('search and filter input (issue 14 fix 7)', () => {
  it.each(TEXT_PARAMS)('$name: the listed inputs search', async (p) => {
    for (const value of [...TRICKY, `  ${TRICKY.join(' ')}  `.slice(0, p.max)]) {
      await expectAnswer(p, value)
    }
  })

  it.each(TEXT_PARAMS)('$name: a NUL byte is a 400 in plain words', async (p) => {
    for (const value of NUL_INPUTS) {
      const res = await get(ctx, urlFor(p.path(), p.param, value), token)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(res.body.code).toBe('validation_error')
      expect(JSON.stringify(res.body)).toContain(TEXT_INPUT_TEXTS.nul)
    }
    // over the length: 400, not a 500 from the database
    const long = await get(ctx, urlFor(p.path(), p.param, 'x'.repeat(p.max + 1)), token)
    expect(long.status).toBe(400)
  })

  it('the searches still find what they should', async () => {
    const search = async (q: string, source = 'all') =>
      (await get(ctx, `${paths.knowledgeBase.search}?${new URLSearchParams({ q, source })}`, token))
        .body.results as { kind: string }[]
    expect((await search("O'Brien's")).some((r) => r.kind === 'qa')).toBe(true)
    expect((await search('(encrypt) & :*', 'qa')).length).toBeGreaterThan(0)
    expect((await search('backups\\', 'files')).length).toBeGreaterThan(0)
    expect((await search('😀 emoji', 'qa')).length).toBeGreaterThan(0)
    const list = async (path: string, params: Record<string, string>) =>
      (await get(ctx, `${path}?${new URLSearchParams(params)}`, token)).body.count as number
    expect(await list(paths.knowledgeBase.qa, { q: 'audit_log \\ review' })).toBe(1)
    expect(await list(paths.knowledgeBase.qa, { tag: 'people & roles' })).toBe(1)
    expect(await list(paths.knowledgeBase.qa, { tag: 'i18n 🌍' })).toBe(1)
    expect(await list(paths.knowledgeBase.data, { q: "'and'" })).toBe(1)
    // % and _ are text, not LIKE wildcards
    expect(await list(paths.files.list, { q: '100%_' })).toBe(1)
    expect(await list(paths.files.list, { q: '100_%' })).toBe(0)
    expect(await list(paths.questionnaires.list, { search: '(2024) 50%' })).toBe(1)
    expect(await list(paths.questionnaires.list, { search: '_' })).toBe(0)
  })

  it('tags given to items refuse a NUL byte in plain words', async () => {
    const res = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Is NUL a tag?', answer: 'No.', tags: ['a\u0000b'] },
      token,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(JSON.stringify(res.body)).toContain(TEXT_INPUT_TEXTS.nul)
  })

  it('a NUL byte in any text field of any JSON body is a 400 naming the field, never a 500', async () => {
    const q = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Do you\u0000 encrypt?', answer: 'Yes.' },
      token,
    )
    expect(q.status, JSON.stringify(q.body)).toBe(400)
    expect(q.body).toMatchObject({
      error: TEXT_INPUT_TEXTS.nul,
      msg: `question: ${TEXT_INPUT_TEXTS.nul}`,
    })
    const data = await post(
      ctx,
      paths.knowledgeBase.data,
      { title: 'Nested', value: 'ok', tags: ['fine', 'bad\u0000'] },
      token,
    )
    expect(data.status).toBe(400)
    expect(data.body.msg).toBe(`tags.1: ${TEXT_INPUT_TEXTS.nul}`)
  })

  it('a lone surrogate half, which no URL can carry, is made well formed by the contract', async () => {
    for (const q of ['\ud800', 'a\udc00b', '\udbff\udbff']) {
      const parsed = searchQuerySchema.safeParse({ q })
      expect(parsed.success).toBe(true)
      expect(parsed.data?.q).toBe(q.toWellFormed())
      const results = await createKnowledgeService({ database: ctx.database }).search(orgId, {
        q: parsed.data?.q ?? '',
        source: 'all',
        limit: 10,
      })
      expect(Array.isArray(results)).toBe(true)
    }
  })

  it.each(TEXT_PARAMS)('$name: any string is 200, or a plain 400 only when due', async (p) => {
    // at the limit with an emoji (two UTF-16 units, one character): 200; one more character: 400
    await expectAnswer(p, `${'a'.repeat(p.max - 1)}😀`)
    await expectAnswer(p, `${'a'.repeat(p.max)}😀`)
    await fc.assert(
      fc.asyncProperty(anyText, async (value) => {
        await expectAnswer(p, value)
      }),
      { numRuns: 200 },
    )
  })

  it.each(CHOICE_PARAMS)('$name: any string is 200 for a choice, else 400', async (p) => {
    const check = async (value: string) => {
      const res = await get(ctx, urlFor(p.path(), p.param, value), token)
      const context = `${p.name} = ${JSON.stringify(value)}: ${res.status} ${JSON.stringify(res.body)}`
      expect(res.status, context).toBe(p.valid.includes(received(value)) ? 200 : 400)
      if (res.status === 400) expect(typeof res.body.error, context).toBe('string')
    }
    for (const value of [...p.valid, ...TRICKY, ...NUL_INPUTS]) await check(value)
    await fc.assert(fc.asyncProperty(anyText, check), { numRuns: 100 })
  })

  it('the questionnaire the answer filters ran against answers with its shape', async () => {
    const res = await get(ctx, paths.questionnaires.answers(questionnaireId), token)
    expect(res.status).toBe(200)
    expect(answersResponseSchema.safeParse(res.body).success).toBe(true)
  })
})
