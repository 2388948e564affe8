import {
  COLLABORATION_TEXTS,
  type Comment,
  type CommentCreate,
} from '../../../contract/collaboration.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import { createRateLimiter, type RateLimiter } from '../../auth/rate-limit.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { announceChange, recordActivity } from '../collaboration/activity.ts'
import type { NotificationService } from '../notifications/service.ts'
import { label, type Queryable } from '../questionnaires/shared.ts'
import {
  type CommentSettings,
  commentLimits,
  DEFAULT_COMMENT_SETTINGS,
  type GiveBack,
} from './limits.ts'
import { commentsOf } from './threads.ts'

export type { CommentSettings } from './limits.ts'

/** Who comments: the signed-in person, by name for the notifications they cause. */
export interface Commenter {
  id: number
  name: string
  /** Admins may delete anyone's comment. */
  isAdmin: boolean
}

interface QuestionDb {
  questionnaire_id: string
  name: string
  ref: string | null
  position: number
}

const invalid = (message: string) => apiError(400, message, { code: ERROR_CODES.validation })

/**
 * Comments on a question (issue 29): threads of a first comment and its replies, edited and
 * deleted by their authors, resolved and reopened by anyone who may write. Mentions name people
 * of the organisation, who are notified in the same transaction, each once per comment however
 * often it is edited (issue 37); one comment names at most a few people, and each person writes
 * only so many comments and mentions a minute. Every change is in the questionnaire's activity
 * and announced to its viewers. The body is kept as plain text.
 */
export function createCommentService(deps: {
  database: Database
  notifications?: Pick<NotificationService, 'notify' | 'deliver'>
  /** Counts comments and mentions per person; one on the same database when omitted. */
  limiter?: RateLimiter
  settings?: Partial<CommentSettings>
}) {
  const { pool } = deps.database
  const limits = commentLimits(deps.limiter ?? createRateLimiter(pool, () => new Date()), {
    ...DEFAULT_COMMENT_SETTINGS,
    ...deps.settings,
  })

  async function questionOf(client: Queryable, orgId: number, questionId: number) {
    const { rows } = await client.query<QuestionDb>(
      `select qq.questionnaire_id, q.name, qq.ref, qq.position
         from questionnaire_questions qq join questionnaires q on q.id = qq.questionnaire_id
        where qq.org_id = $1 and qq.id = $2 and qq.deleted_at is null`,
      [orgId, questionId],
    )
    if (!rows[0]) throw notFound(QUESTIONNAIRE_TEXTS.questionNotFound)
    return rows[0]
  }

  /** A comment of the organisation (locked for the change), with its question. */
  async function commentOf(client: Queryable, orgId: number, id: number) {
    const { rows } = await client.query<{
      id: string
      question_id: string
      parent_id: string | null
      author_id: string | null
      mentions: string[]
      deleted_at: Date | null
    }>(
      `select id, question_id, parent_id, author_id, mentions::text[] as mentions, deleted_at
         from question_comments where org_id = $1 and id = $2 for update`,
      [orgId, id],
    )
    const row = rows[0]
    if (!row || row.deleted_at) throw notFound(COLLABORATION_TEXTS.commentNotFound)
    const questionId = Number(row.question_id)
    return { ...row, questionId, question: await questionOf(client, orgId, questionId) }
  }

  /** Every id must be an active person of the organisation; nothing is written otherwise. */
  async function checkMentions(client: Queryable, orgId: number, ids: number[]) {
    if (!ids.length) return
    const { rows } = await client.query<{ count: string }>(
      `select count(*) from users where org_id = $1 and status = 'active' and id = any($2::bigint[])`,
      [orgId, ids],
    )
    if (Number(rows[0]?.count ?? 0) !== ids.length)
      throw invalid(COLLABORATION_TEXTS.mentionOutside)
  }

  /**
   * Tells the people a comment names that it mentions them, each once per comment: those it told
   * before (an edit that takes a mention away and gives it back) are not told again.
   */
  async function tell(
    client: Queryable,
    orgId: number,
    actor: Commenter,
    comment: { id: number; question: QuestionDb; questionId: number; body: string },
    mentioned: number[],
  ) {
    const { question } = comment
    const told = await client.query<{ user_id: string }>(
      `insert into question_comment_notified (org_id, comment_id, user_id)
       select $1, $2, unnest($3::bigint[])
       on conflict do nothing returning user_id`,
      [orgId, comment.id, mentioned.filter((userId) => userId !== actor.id)],
    )
    await deps.notifications?.notify(
      client,
      told.rows.map((row) => ({
        orgId,
        userId: Number(row.user_id),
        kind: 'mentioned',
        text: `${actor.name} mentioned you on ${label(question)} of ${question.name}`,
        quote: comment.body,
        actorId: actor.id,
        questionnaireId: Number(question.questionnaire_id),
        questionId: comment.questionId,
      })),
    )
  }

  /** The people a comment has told it mentions them. */
  async function toldBy(orgId: number, commentId: number) {
    const { rows } = await pool.query<{ user_id: string }>(
      'select user_id from question_comment_notified where org_id = $1 and comment_id = $2',
      [orgId, commentId],
    )
    return new Set(rows.map((row) => Number(row.user_id)))
  }

  /**
   * Takes the writer's comment and mentions of this minute (429 past them), does the write, and
   * gives them back when the write fails.
   */
  async function limited<T>(actor: Commenter, newlyNamed: number[], write: () => Promise<T>) {
    const giveComment = await limits.comment(actor.id)
    let giveMentions: GiveBack = async () => {}
    try {
      giveMentions = await limits.mentions(
        actor.id,
        newlyNamed.filter((userId) => userId !== actor.id).length,
      )
      return await write()
    } catch (error) {
      await giveMentions().catch(() => {})
      await giveComment().catch(() => {})
      throw error
    }
  }

  const announce = (
    client: Queryable,
    orgId: number,
    actor: Commenter,
    question: QuestionDb,
    questionId: number,
  ) =>
    announceChange(client, {
      orgId,
      questionnaireId: Number(question.questionnaire_id),
      kind: 'comments',
      questionIds: [questionId],
      userId: actor.id,
    })

  async function one(orgId: number, id: number) {
    const [comment] = await commentsOf(pool, orgId, { ids: [id] })
    if (!comment) throw notFound(COLLABORATION_TEXTS.commentNotFound)
    return comment
  }

  async function list(orgId: number, questionId: number): Promise<{ results: Comment[] }> {
    await questionOf(pool, orgId, questionId)
    return { results: await commentsOf(pool, orgId, { questionId }) }
  }

  async function create(orgId: number, actor: Commenter, questionId: number, input: CommentCreate) {
    const mentions = [...new Set(input.mentions ?? [])]
    limits.checkPeople(mentions.length)
    const write = () =>
      inTransaction(pool, async (client) => {
        const question = await questionOf(client, orgId, questionId)
        if (input.parent_id) {
          const parent = await client.query(
            `select 1 from question_comments
            where org_id = $1 and id = $2 and question_id = $3 and parent_id is null`,
            [orgId, input.parent_id, questionId],
          )
          if (!parent.rowCount) throw invalid(COLLABORATION_TEXTS.replyToReply)
        }
        await checkMentions(client, orgId, mentions)
        const { rows } = await client.query<{ id: string }>(
          `insert into question_comments
           (org_id, questionnaire_id, question_id, parent_id, author_id, body, mentions)
         values ($1, $2, $3, $4, $5, $6, $7::bigint[]) returning id`,
          [
            orgId,
            question.questionnaire_id,
            questionId,
            input.parent_id ?? null,
            actor.id,
            input.body,
            mentions,
          ],
        )
        await recordActivity(client, {
          orgId,
          questionnaireId: Number(question.questionnaire_id),
          kind: 'commented',
          summary: `Commented on ${label(question)}`,
          questionId,
          userId: actor.id,
        })
        const id = Number(rows[0]?.id)
        await tell(client, orgId, actor, { id, question, questionId, body: input.body }, mentions)
        await announce(client, orgId, actor, question, questionId)
        return id
      })
    const id = await limited(actor, mentions, write)
    await deps.notifications?.deliver()
    return one(orgId, id)
  }

  /** The author changes the text; people mentioned for the first time by it are told. */
  async function edit(
    orgId: number,
    actor: Commenter,
    id: number,
    input: { body: string; mentions?: number[] },
  ) {
    const named = input.mentions ? [...new Set(input.mentions)] : []
    limits.checkPeople(named.length)
    const told = named.length ? await toldBy(orgId, id) : new Set<number>()
    const write = () =>
      inTransaction(pool, async (client) => {
        const comment = await commentOf(client, orgId, id)
        if (Number(comment.author_id) !== actor.id)
          throw apiError(403, COLLABORATION_TEXTS.notYourComment, { code: ERROR_CODES.forbidden })
        const before = new Set(comment.mentions.map(Number))
        const mentions = input.mentions ? [...new Set(input.mentions)] : [...before]
        await checkMentions(client, orgId, mentions)
        await client.query(
          `update question_comments set body = $2, mentions = $3::bigint[], edited_at = now() where id = $1`,
          [id, input.body, mentions],
        )
        // an edit that names nobody keeps its mentions and tells nobody
        await tell(client, orgId, actor, { ...comment, id, body: input.body }, named)
        await announce(client, orgId, actor, comment.question, comment.questionId)
      })
    await limited(
      actor,
      named.filter((userId) => !told.has(userId)),
      write,
    )
    await deps.notifications?.deliver()
    return one(orgId, id)
  }

  /** Its author (or an admin) deletes a comment: its text goes, its place in the thread stays. */
  async function remove(orgId: number, actor: Commenter, id: number) {
    await inTransaction(pool, async (client) => {
      const comment = await commentOf(client, orgId, id)
      if (Number(comment.author_id) !== actor.id && !actor.isAdmin)
        throw apiError(403, COLLABORATION_TEXTS.notYourComment, { code: ERROR_CODES.forbidden })
      await client.query(
        `update question_comments set body = '', mentions = '{}', deleted_at = now() where id = $1`,
        [id],
      )
      await announce(client, orgId, actor, comment.question, comment.questionId)
    })
    return one(orgId, id)
  }

  /** Resolves (or reopens) the thread the comment belongs to; the thread's first comment says so. */
  async function resolve(orgId: number, actor: Commenter, id: number, resolved: boolean) {
    const first = await inTransaction(pool, async (client) => {
      const comment = await commentOf(client, orgId, id)
      const thread = Number(comment.parent_id ?? comment.id)
      await client.query(
        resolved
          ? 'update question_comments set resolved_at = now(), resolved_by = $2 where id = $1'
          : 'update question_comments set resolved_at = null, resolved_by = null where id = $1 and $2::bigint is not null',
        [thread, actor.id],
      )
      await announce(client, orgId, actor, comment.question, comment.questionId)
      return thread
    })
    return one(orgId, first)
  }

  return { list, create, edit, remove, resolve }
}

export type CommentService = ReturnType<typeof createCommentService>
