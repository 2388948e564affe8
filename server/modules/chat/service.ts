import {
  CHAT_TEXTS,
  type ChatMessage,
  type ChatQuota,
  type ChatSession,
} from '../../../contract/chat.ts'
import type { Citation } from '../../../contract/questionnaires.ts'
import { YES_NO_QUESTION } from '../../answering/library.ts'
import { practiceQuery } from '../../answering/practices.ts'
import { namedPractices } from '../../answering/stated.ts'
import type { EngineAnswer, PassageHit, QuestionInput } from '../../answering/types.ts'
import type { AuthContext } from '../../auth/context.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { inForce, type TierCatalog } from '../account/license.ts'
import { loadLibrary, searchPassages } from '../answering/store.ts'
import { composeAnswer, titleFrom } from './answer.ts'

type Client = Parameters<Parameters<typeof inTransaction>[1]>[0]

interface SessionRow {
  id: string
  title: string
  named: boolean
  created_at: Date
  updated_at: Date
  message_count: string
}
interface MessageRow {
  id: string
  role: 'user' | 'assistant'
  content: string
  citations: Citation[]
  status: 'complete' | 'stopped' | 'failed'
  created_at: Date
}

const toSession = (row: SessionRow): ChatSession => ({
  id: Number(row.id),
  title: row.title,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  message_count: Number(row.message_count),
})
const toMessage = (row: MessageRow): ChatMessage => ({
  id: Number(row.id),
  role: row.role,
  content: row.content,
  citations: row.citations,
  status: row.status,
  created_at: row.created_at.toISOString(),
})

const SESSION_SQL = `select s.id, s.title, s.named, s.created_at, s.updated_at,
  (select count(*) from chat_messages m where m.session_id = s.id) as message_count
  from chat_sessions s`

/** The first of next month (UTC), when the chat quota starts again. */
const nextMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))

export function createChatService(deps: {
  database: Database
  catalog: () => TierCatalog
  now: () => Date
  /** The questionnaire engine: the same retrieval and evidence rules. */
  answerQuestion: (
    orgId: number,
    library: Awaited<ReturnType<typeof loadLibrary>>,
    question: QuestionInput,
  ) => Promise<EngineAnswer>
  /** Whether a language model writes the answers (else they are quoted from the evidence). */
  hasModel: boolean
}) {
  const { pool } = deps.database

  async function own(client: Pick<Client, 'query'>, auth: AuthContext, id: number) {
    const { rows } = await client.query<SessionRow>(
      `${SESSION_SQL} where s.id = $1 and s.org_id = $2 and s.user_id = $3`,
      [id, auth.org.id, auth.user.id],
    )
    const row = rows[0]
    if (!row) throw notFound(CHAT_TEXTS.notFound)
    return row
  }

  async function list(auth: AuthContext, q?: string) {
    const { rows } = await pool.query<SessionRow>(
      `${SESSION_SQL} where s.org_id = $1 and s.user_id = $2
         and ($3::text is null or s.title ilike '%' || $3 || '%'
              or exists (select 1 from chat_messages m where m.session_id = s.id and m.content ilike '%' || $3 || '%'))
       order by s.updated_at desc, s.id desc limit 200`,
      [auth.org.id, auth.user.id, q?.trim() ? q.trim().replace(/[\\%_]/g, '\\$&') : null],
    )
    return { results: rows.map(toSession) }
  }

  async function create(auth: AuthContext, title: string | undefined) {
    const { rows } = await pool.query<{ id: string }>(
      `insert into chat_sessions (org_id, user_id, title, named) values ($1, $2, $3, $4) returning id`,
      [auth.org.id, auth.user.id, title ?? CHAT_TEXTS.newConversation, Boolean(title)],
    )
    return toSession(await own(pool, auth, Number(rows[0]?.id)))
  }

  async function get(auth: AuthContext, id: number) {
    const session = await own(pool, auth, id)
    const { rows } = await pool.query<MessageRow>(
      `select id, role, content, citations, status, created_at from chat_messages
        where session_id = $1 order by id`,
      [id],
    )
    return { session: toSession(session), messages: rows.map(toMessage) }
  }

  async function rename(auth: AuthContext, id: number, title: string) {
    await own(pool, auth, id)
    await pool.query(
      'update chat_sessions set title = $2, named = true, updated_at = now() where id = $1',
      [id, title],
    )
    return toSession(await own(pool, auth, id))
  }

  async function remove(auth: AuthContext, id: number) {
    await own(pool, auth, id)
    await pool.query('delete from chat_sessions where id = $1', [id])
    return { deleted: id }
  }

  /** The tier's monthly questions (0 or less: none), the default tier's when not in force. */
  async function limitOf(client: Pick<Client, 'query'>, orgId: number) {
    const { rows } = await client.query<{
      tier_key: string
      is_active: boolean
      expiration_date: Date | null
    }>('select tier_key, is_active, expiration_date from licenses where org_id = $1', [orgId])
    const row = rows[0]
    const catalog = deps.catalog()
    const tier =
      row && inForce({ isActive: row.is_active, expirationDate: row.expiration_date }, deps.now())
        ? (catalog.byKey(row.tier_key) ?? catalog.defaultTier)
        : catalog.defaultTier
    const limit = tier.limits.max_chat_questions
    return limit > 0 ? limit : null
  }

  async function usedThisMonth(client: Pick<Client, 'query'>, orgId: number) {
    const { rows } = await client.query<{ n: string }>(
      // the usage ledger: one row per accepted question, which deleting conversations never removes
      `select count(*) as n from chat_usage where org_id = $1 and created_at >= $2`,
      [orgId, monthStart(deps.now())],
    )
    return Number(rows[0]?.n ?? 0)
  }

  async function quota(orgId: number): Promise<ChatQuota> {
    return {
      used: await usedThisMonth(pool, orgId),
      limit: await limitOf(pool, orgId),
      resets_at: nextMonth(deps.now()).toISOString(),
      language_model: deps.hasModel,
    }
  }

  /**
   * The document passages about a question, by its words and by the practices it names: their
   * sentences support the answer beside the library's (which the engine may have answered from
   * without reading them).
   */
  async function passagesFor(orgId: number, text: string): Promise<PassageHit[]> {
    const named = practiceQuery(namedPractices(text))
    const lists = await Promise.all([
      searchPassages(deps.database, orgId, text),
      named ? searchPassages(deps.database, orgId, named) : [],
    ])
    const seen = new Set<string>()
    return lists.flat().filter((hit) => {
      const key = `${hit.source}${hit.id}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  }

  /**
   * Records a question (within the month's quota: the organisation's questions are counted under
   * a lock, so parallel questions at the limit give one success) and works out its answer.
   */
  async function ask(auth: AuthContext, id: number, content: string) {
    const orgId = auth.org.id
    const question = await inTransaction(pool, async (client) => {
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`chat-quota:${orgId}`])
      const session = await own(client, auth, id)
      const limit = await limitOf(client, orgId)
      if (limit !== null && (await usedThisMonth(client, orgId)) >= limit) {
        const date = nextMonth(deps.now()).toISOString().slice(0, 10)
        const text = CHAT_TEXTS.quotaReached
          .replace('{limit}', String(limit))
          .replace('{date}', date)
        throw apiError(429, text, { msg: text, code: 'chat_quota' })
      }
      const { rows } = await client.query<MessageRow>(
        `insert into chat_messages (org_id, session_id, role, content) values ($1, $2, 'user', $3)
         returning id, role, content, citations, status, created_at`,
        [orgId, id, content],
      )
      const usage = await client.query<{ id: string }>(
        'insert into chat_usage (org_id, user_id) values ($1, $2) returning id',
        [orgId, auth.user.id],
      )
      await client.query(
        `update chat_sessions set updated_at = now(),
                title = case when named then title else $2 end, named = true
          where id = $1`,
        [id, session.named ? session.title : titleFrom(content)],
      )
      return { message: rows[0] as MessageRow, usageId: usage.rows[0]?.id }
    })
    // a Yes/No question is answered Yes, No or N/A, as a questionnaire's cell would be
    const asked: QuestionInput = {
      text: content,
      vocabulary: YES_NO_QUESTION.test(content) ? ['Yes', 'No', 'N/A'] : null,
    }
    let composed: { content: string; citations: Citation[] }
    try {
      const library = await loadLibrary(deps.database, orgId)
      const [answer, passages] = await Promise.all([
        deps.answerQuestion(orgId, library, asked),
        passagesFor(orgId, content),
      ])
      composed = composeAnswer({ question: asked, answer, passages, library, model: deps.hasModel })
    } catch (error) {
      // no answer (the model's budget, a failure): the question is not kept nor counted
      await inTransaction(pool, async (client) => {
        await client.query('delete from chat_messages where id = $1', [question.message.id])
        await client.query('delete from chat_usage where id = $1', [question.usageId])
      })
      throw error
    }
    return {
      question: toMessage(question.message),
      ...composed,
    }
  }

  /** Stores the answer as it was given (stopped: the part the person saw). */
  async function saveAnswer(
    auth: AuthContext,
    id: number,
    answer: { content: string; citations: Citation[]; status: ChatMessage['status'] },
  ) {
    const { rows } = await pool.query<MessageRow>(
      `insert into chat_messages (org_id, session_id, role, content, citations, status)
       values ($1, $2, 'assistant', $3, $4, $5)
       returning id, role, content, citations, status, created_at`,
      [auth.org.id, id, answer.content, JSON.stringify(answer.citations), answer.status],
    )
    await pool.query('update chat_sessions set updated_at = now() where id = $1', [id])
    return {
      answer: toMessage(rows[0] as MessageRow),
      session: toSession(await own(pool, auth, id)),
    }
  }

  /**
   * Follow-up questions: the approved library's questions nearest to the conversation's last
   * question (not the ones already asked), else the library's own, so every suggestion has an
   * answer behind it.
   */
  async function followUps(auth: AuthContext, sessionId: number | undefined) {
    const asked: string[] = []
    if (sessionId !== undefined) {
      await own(pool, auth, sessionId)
      const { rows } = await pool.query<{ content: string }>(
        `select content from chat_messages where session_id = $1 and role = 'user' order by id desc limit 5`,
        [sessionId],
      )
      asked.push(...rows.map((row) => row.content))
    }
    const library = await loadLibrary(deps.database, auth.org.id)
    const seen = new Set(asked.map((text) => text.trim().toLowerCase()))
    // the nearest by the library's own ranking, then those sharing a word of the question
    const words = new Set((asked[0] ?? '').toLowerCase().match(/\p{L}{4,}/gu) ?? [])
    const sharing = library.entries.filter((entry) =>
      (entry.question.toLowerCase().match(/\p{L}{4,}/gu) ?? []).some((word) => words.has(word)),
    )
    const pool_ = asked[0]
      ? [...library.match(asked[0], 24).map((match) => match.entry), ...sharing]
      : library.entries.slice(0, 24)
    const questions: string[] = []
    for (const entry of pool_) {
      const text = entry.question.trim()
      const key = text.toLowerCase()
      if (!text || seen.has(key) || entry.source !== 'qa') continue
      seen.add(key)
      questions.push(text)
      if (questions.length === 4) break
    }
    return { questions }
  }

  /** A streamed answer's progress: what was sent so far, and whether it ended. */
  async function updateAnswer(
    answerId: number,
    answer: { content: string; status: ChatMessage['status'] },
  ) {
    await pool.query('update chat_messages set content = $2, status = $3 where id = $1', [
      answerId,
      answer.content,
      answer.status,
    ])
  }

  return { list, create, get, rename, remove, quota, ask, saveAnswer, updateAnswer, followUps }
}

export type ChatService = ReturnType<typeof createChatService>
