import { describe, expect, it } from 'vitest'
import { CHAT_TEXTS } from '../../contract/chat.ts'
import { apiPath, paths } from '../../contract/paths.ts'
import { postForEvents } from '../support/sse.ts'
import { addQa, member } from './answering/helpers.ts'
import { call, get, post } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * The chat assistant's calls: conversations of their own, questions answered from the
 * organisation's knowledge with numbered citations (as JSON or as server-sent events), no claim
 * without evidence, and the monthly quota.
 */
const ctx = withTestApp()
const C = paths.chat

async function conversation(token: string, title?: string) {
  const res = await post(ctx, title ? C.create : C.createUnnamed, title ? { title } : {}, token)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: number; title: string }
}

/**
 * Questions asked earlier this month in a conversation, as the server keeps them: the messages
 * and one usage-ledger row each.
 */
async function earlierQuestions(orgId: number, sessionId: number, count: number) {
  await ctx.database.pool.query(
    `insert into chat_messages (org_id, session_id, role, content)
     select $1, $2, 'user', 'earlier question ' || n from generate_series(1, $3) n`,
    [orgId, sessionId, count],
  )
  await ctx.database.pool.query(
    `insert into chat_usage (org_id, user_id)
     select $1, s.user_id from chat_sessions s, generate_series(1, $3) where s.id = $2`,
    [orgId, sessionId, count],
  )
}

/** The events of a streamed answer, in order. */
async function streamed(token: string, id: number, content: string) {
  const res = await postForEvents(ctx.app.request, C.messages(id), token, { content })
  expect(res.headers.get('content-type')).toContain('text/event-stream')
  const text = await res.text()
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1] ?? ''
      const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? 'null')
      return { event, data }
    })
}

describe('chat conversations', () => {
  it('creates, lists, searches, renames and deletes one’s own conversations; others get 404', async () => {
    const user = await member(ctx)
    const colleague = await member(ctx, user.orgId)
    const stranger = await member(ctx)
    const named = await conversation(user.token, 'Backups for Acme')
    const unnamed = await conversation(user.token)
    expect(unnamed.title).toBe(CHAT_TEXTS.newConversation)
    const listed = await get(ctx, C.sessions, user.token)
    expect(listed.body.results.map((s: { id: number }) => s.id)).toEqual([unnamed.id, named.id])
    expect((await get(ctx, `${C.sessions}?q=acme`, user.token)).body.results).toHaveLength(1)
    const renamed = await post(ctx, C.update(named.id), { title: 'Backups' }, user.token)
    expect(renamed.body.title).toBe('Backups')
    expect((await post(ctx, C.update(named.id), { title: '  ' }, user.token)).status).toBe(400)
    for (const token of [colleague.token, stranger.token]) {
      expect((await get(ctx, C.session(named.id), token)).status).toBe(404)
      expect((await post(ctx, C.messages(named.id), { content: 'Hello?' }, token)).status).toBe(404)
      expect((await post(ctx, C.delete(named.id), {}, token)).status).toBe(404)
      expect((await get(ctx, C.sessions, token)).body.results).toEqual([])
    }
    expect((await post(ctx, C.delete(named.id), {}, user.token)).status).toBe(200)
    expect((await get(ctx, C.session(named.id), user.token)).status).toBe(404)
  })
})

describe('chat answers', () => {
  it('answers from the knowledge with numbered citations, and names the conversation', async () => {
    const user = await member(ctx)
    await addQa(ctx, user.token, {
      question: 'Do you encrypt backups?',
      answer: 'Yes, backups are encrypted with AES-256 and kept in a second region.',
    })
    const chat = await conversation(user.token)
    const reply = await post(
      ctx,
      C.messages(chat.id),
      { content: 'Do you encrypt backups?' },
      user.token,
    )
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.question).toMatchObject({ role: 'user', content: 'Do you encrypt backups?' })
    // the direct answer, then the sentence that supports it, numbered; no note about models
    expect(reply.body.answer.content).toBe(
      'Yes.\n\nYour answer to “Do you encrypt backups?”: Yes, backups are encrypted with AES-256 and kept in a second region. [1]',
    )
    expect(reply.body.answer.content).not.toContain(CHAT_TEXTS.extractiveNote)
    expect(reply.body.answer.citations[0]).toMatchObject({
      source: 'qa',
      title: expect.any(String),
    })
    // the knowledge base opens the cited item by its id
    const cited = await get(
      ctx,
      `${paths.knowledgeBase.qa}?id=${reply.body.answer.citations[0].id}`,
      user.token,
    )
    expect(cited.body.results.map((item: { question: string }) => item.question)).toEqual([
      'Do you encrypt backups?',
    ])
    expect(reply.body.session.title).toBe('Do you encrypt backups?')
    const history = await get(ctx, C.messages(chat.id), user.token)
    expect(history.body.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
    ])
  })

  it('LL1: another organisation’s knowledge never reaches an answer or its sources', async () => {
    const owner = await member(ctx)
    await addQa(ctx, owner.token, {
      question: 'What is the vault recovery phrase?',
      answer: 'The vault recovery phrase is CANARY-ZEBRA-7731.',
    })
    const other = await member(ctx)
    const chat = await conversation(other.token)
    const reply = await post(
      ctx,
      C.messages(chat.id),
      { content: 'What is the vault recovery phrase?' },
      other.token,
    )
    expect(JSON.stringify(reply.body)).not.toContain('CANARY-ZEBRA')
    const events = await streamed(other.token, chat.id, 'vault recovery phrase CANARY')
    expect(JSON.stringify(events)).not.toContain('ZEBRA-7731')
    const mine = await conversation(owner.token)
    const own = await post(
      ctx,
      C.messages(mine.id),
      { content: 'What is the vault recovery phrase?' },
      owner.token,
    )
    expect(own.body.answer.content).toContain('CANARY-ZEBRA-7731')
  })

  it('says what it looked for when nothing states it, and claims nothing', async () => {
    const user = await member(ctx)
    const chat = await conversation(user.token)
    const reply = await post(
      ctx,
      C.messages(chat.id),
      { content: 'Do you run a bug bounty on Mars?' },
      user.token,
    )
    expect(reply.body.answer.content).toMatch(
      /^I looked for “Do you run a bug bounty on Mars\?”.*found nothing that states it/,
    )
    expect(reply.body.answer.content).not.toMatch(/\bYes\b/)
  })

  it('streams the answer as server-sent events: start, tokens, citations, done', async () => {
    const user = await member(ctx)
    await addQa(ctx, user.token, {
      question: 'Is data encrypted at rest?',
      answer: 'Yes, all customer data is encrypted at rest with AES-256 managed in a KMS.',
    })
    const chat = await conversation(user.token)
    const events = await streamed(user.token, chat.id, 'Is data encrypted at rest?')
    expect(events[0]?.event).toBe('start')
    expect(events.filter((e) => e.event === 'token').length).toBeGreaterThan(1)
    const text = events
      .filter((e) => e.event === 'token')
      .map((e) => e.data.text)
      .join('')
    const done = events.find((e) => e.event === 'done')?.data
    expect(done.answer.content).toBe(text)
    expect(done.answer.status).toBe('complete')
    expect(events.find((e) => e.event === 'citations')?.data[0]).toMatchObject({ source: 'qa' })
    expect(events.at(-1)?.event).toBe('done')
  })

  it('stops a streamed answer when the client leaves: the part sent is kept, marked stopped', async () => {
    const user = await member(ctx)
    await addQa(ctx, user.token, {
      question: 'How do you manage vulnerabilities?',
      answer:
        'We scan every host weekly with an authenticated scanner, fix critical findings within seven days, high ones within thirty days, and track every exception in the risk register reviewed monthly by the security officer.',
    })
    const chat = await conversation(user.token)
    const controller = new AbortController()
    const res = await postForEvents(
      ctx.app.request,
      C.messages(chat.id),
      user.token,
      { content: 'How do you manage vulnerabilities?' },
      controller.signal,
    )
    const reader = res.body?.getReader()
    let seen = ''
    while (!seen.includes('event: token')) {
      const chunk = await reader?.read()
      if (!chunk || chunk.done) break
      seen += new TextDecoder().decode(chunk.value)
    }
    controller.abort()
    await reader?.cancel().catch(() => undefined)
    // the answer is kept from its start; once the stream ends it holds what was sent, as stopped
    await expect
      .poll(async () => {
        const history = await get(ctx, C.messages(chat.id), user.token)
        const kept = history.body.messages.find((m: { role: string }) => m.role === 'assistant')
        return kept?.status === 'stopped' && kept.content.length > 0
      })
      .toBe(true)
    const history = await get(ctx, C.messages(chat.id), user.token)
    const answer = history.body.messages.find((m: { role: string }) => m.role === 'assistant')
    expect(answer.content.length).toBeGreaterThan(0)
    expect(answer.content).not.toContain('risk register reviewed monthly')
  })

  it('exports a conversation as Markdown and as PDF, with its sources', async () => {
    const user = await member(ctx)
    await addQa(ctx, user.token, {
      question: 'Do you have a DPO?',
      answer: 'Yes, our DPO is Jane Roe.',
    })
    const chat = await conversation(user.token, 'Privacy questions')
    await post(ctx, C.messages(chat.id), { content: 'Do you have a DPO?' }, user.token)
    const markdown = await call(ctx, 'GET', C.export(chat.id), { token: user.token })
    expect(markdown.headers.get('content-type')).toContain('text/markdown')
    expect(markdown.headers.get('content-disposition')).toContain('Privacy questions.md')
    expect(String(markdown.body)).toMatch(/^# Privacy questions/)
    expect(String(markdown.body)).toContain('Jane Roe')
    expect(String(markdown.body)).toContain('Sources:')
    const pdf = await ctx.app.request(apiPath(`${C.export(chat.id)}?format=pdf`), {
      headers: { authorization: `Bearer ${user.token}` },
    })
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const bytes = new Uint8Array(await pdf.arrayBuffer())
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-')
    const { extractText } = await import('unpdf')
    const { text } = await extractText(bytes, { mergePages: true })
    expect(text).toContain('Jane Roe')
  })

  it('suggests follow-ups that have answers behind them, not the questions already asked', async () => {
    const user = await member(ctx)
    await addQa(
      ctx,
      user.token,
      { question: 'Do you encrypt backups?', answer: 'Yes.' },
      { question: 'How often are backups tested?', answer: 'Quarterly.' },
      { question: 'Where are backups stored?', answer: 'In a second region.' },
    )
    const chat = await conversation(user.token)
    await post(ctx, C.messages(chat.id), { content: 'Do you encrypt backups?' }, user.token)
    const suggested = await get(ctx, `${C.dynamicQuestions}?session_id=${chat.id}`, user.token)
    expect(suggested.body.questions).toEqual(
      expect.arrayContaining(['How often are backups tested?', 'Where are backups stored?']),
    )
    expect(suggested.body.questions).not.toContain('Do you encrypt backups?')
  })

  it('refuses an empty question, and questions past the month’s quota (parallel: one gets the last)', async () => {
    const user = await member(ctx)
    const chat = await conversation(user.token)
    expect((await post(ctx, C.messages(chat.id), { content: '   ' }, user.token)).status).toBe(400)
    const quota = await get(ctx, C.quota, user.token)
    expect(quota.body).toMatchObject({ used: 0, limit: 100, language_model: false })
    await earlierQuestions(user.orgId, chat.id, 99)
    const answers = await Promise.all(
      [1, 2, 3].map((n) =>
        call(ctx, 'POST', C.messages(chat.id), {
          token: user.token,
          body: { content: `Question ${n}?` },
        }),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429])
    const refused = answers.find((a) => a.status === 429)
    expect(refused?.body.error).toMatch(
      /^Your organisation has used its 100 chat questions for this month/,
    )
    expect((await get(ctx, C.quota, user.token)).body.used).toBe(100)
  })

  it('deleting conversations does not give back the month’s questions (the usage ledger counts them)', async () => {
    const user = await member(ctx)
    const first = await conversation(user.token)
    await earlierQuestions(user.orgId, first.id, 99)
    const last = await post(
      ctx,
      C.messages(first.id),
      { content: 'The last question?' },
      user.token,
    )
    expect(last.status).toBe(200)
    expect((await get(ctx, C.quota, user.token)).body).toMatchObject({ used: 100, limit: 100 })
    expect((await post(ctx, C.delete(first.id), {}, user.token)).status).toBe(200)
    const again = await conversation(user.token)
    const refused = await post(ctx, C.messages(again.id), { content: 'One more?' }, user.token)
    expect(refused.status).toBe(429)
    expect(refused.body.code).toBe('chat_quota')
    expect((await get(ctx, C.quota, user.token)).body).toMatchObject({ used: 100, limit: 100 })
  })
})
