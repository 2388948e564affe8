import { fillText } from '../../../contract/knowledge.ts'
import { type AnswerStatus, QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import type { EngineAnswer } from '../../answering/engine.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import { notifyStatement } from '../../http/event-hub.ts'
import { limitOf } from '../account/license.ts'
import { emitWebhook } from '../platform/webhooks.ts'
import type { Change } from '../questionnaires/service.ts'
import type { Drafting } from './drafting.ts'
import {
  type AnsweringDeps,
  BATCH,
  GENERATE_JOB,
  GENERATION_LOCK_CLASS,
  gives,
  HUMAN,
  PREVIOUS_QUESTION,
  type QuestionDb,
} from './shared.ts'
import { embedMissing, loadLibrary, loadPassageIndex } from './store.ts'

/** A run stops (and its job fails, to be retried) when the database dropped its lease. */
const LEASE_LOST = 'the generation lost its lease: the database connection holding it was closed'

/**
 * Generation as a job: one run per questionnaire at a time, leased to one process, resumable after a crash with honest progress (DU2), never touching answers a person edited or approved.
 */
/** The history's words for a run that drafts the file's own answers again (issue 39). */
const WITH_EXISTING = ', the file’s own answers drafted again'
export const GENERATED_WITH_EXISTING = `Generated answers${WITH_EXISTING}`

export function createGeneration(deps: AnsweringDeps, drafting: Drafting) {
  const { pool } = deps.database
  const log = deps.logger.child({ component: 'answering' })

  const { writeCandidates, batchVectors, answerQuestion } = drafting

  /**
   * POST generate/: one run per questionnaire at a time. The status moves from ready to
   * generating in one conditional UPDATE, so of two parallel calls exactly one starts a run; the
   * other gets 409 with the id of the run in progress (its operation in the history).
   */
  async function start(
    orgId: number,
    userId: number,
    questionnaireId: number,
    options: { include_existing?: boolean } = {},
  ) {
    const operationId = await inTransaction(pool, async (client) => {
      const claimed = await client.query(
        `update questionnaires set status = 'generating', progress = 0, progress_label = 'Finding evidence',
            error = null, processing_started_at = now(), updated_at = now()
          where org_id = $1 and id = $2 and status = 'ready' returning id`,
        [orgId, questionnaireId],
      )
      if (!claimed.rowCount) return null
      const { rows } = await client.query<{ id: string }>(
        `insert into questionnaire_operations (org_id, questionnaire_id, kind, summary, created_by)
         values ($1, $2, 'generate', $4, $3) returning id`,
        [
          orgId,
          questionnaireId,
          userId,
          options.include_existing ? GENERATED_WITH_EXISTING : 'Generated answers',
        ],
      )
      return Number(rows[0]?.id)
    })
    if (operationId === null) {
      const questionnaire = await deps.questionnaires.get(orgId, questionnaireId)
      if (questionnaire.status === 'generating') {
        const running = await runningOperation(questionnaireId)
        throw apiError(409, 'Answers are already being generated', {
          code: 'conflict',
          job_id: running,
        })
      }
      throw apiError(409, QUESTIONNAIRE_TEXTS.stillAnalyzing, { code: 'conflict' })
    }
    await queue(questionnaireId, operationId)
    return deps.questionnaires.get(orgId, questionnaireId)
  }

  /** The generate operation of the run in progress (the latest one). */
  async function runningOperation(questionnaireId: number) {
    const { rows } = await pool.query<{ id: string | null }>(
      `select max(id) as id from questionnaire_operations where questionnaire_id = $1 and kind = 'generate'`,
      [questionnaireId],
    )
    return rows[0]?.id ? Number(rows[0].id) : null
  }

  async function queue(questionnaireId: number, operationId: number) {
    if (deps.jobs) {
      await deps.jobs.send(
        GENERATE_JOB,
        { questionnaireId, operationId },
        { retryLimit: 2, retryDelay: 2, singletonKey: `generate-${questionnaireId}` },
      )
      return
    }
    void run(questionnaireId, operationId).catch((error) =>
      log.error({ err: error, questionnaireId }, 'generation failed'),
    )
  }

  async function cancel(orgId: number, questionnaireId: number) {
    await deps.questionnaires.get(orgId, questionnaireId)
    await pool.query(
      `update questionnaires set status = 'ready', progress = 100, progress_label = null, updated_at = now()
        where org_id = $1 and id = $2 and status = 'generating'`,
      [orgId, questionnaireId],
    )
    return deps.questionnaires.get(orgId, questionnaireId)
  }

  /**
   * The run's lease: a session advisory lock on a connection held for the whole run. PostgreSQL
   * releases it the moment the process holding it dies (kill -9 included), so a run is never
   * executed twice at once, on any node, and a cut-off run is seen as such at once (DU2).
   */
  const LEASE_SQL = (fn: string) =>
    `select ${fn}(${GENERATION_LOCK_CLASS}, ($1::bigint % 2147483647)::int) as ok`

  async function withLease(questionnaireId: number, work: (alive: () => boolean) => Promise<void>) {
    const lease = await pool.connect()
    let held = false
    let broken = false
    // the database dropped the lease's connection (restart, failover): the lock is gone with it,
    // so the run stops at its next batch and fails, to be resumed by whoever takes the lease
    lease.on('error', () => {
      broken = true
    })
    try {
      const { rows } = await lease.query<{ ok: boolean }>(LEASE_SQL('pg_try_advisory_lock'), [
        questionnaireId,
      ])
      held = rows[0]?.ok === true
      if (!held) return false
      await work(() => !broken)
      if (broken) throw new Error(LEASE_LOST)
      return true
    } finally {
      if (held)
        await lease.query(LEASE_SQL('pg_advisory_unlock'), [questionnaireId]).catch(() => {
          broken = true
        })
      // a connection whose unlock failed is dropped, which releases the lock
      lease.release(broken)
    }
  }

  /** The job: answers every question still waiting, in batches, each batch in one transaction. */
  async function run(questionnaireId: number, operationId: number) {
    // another live run holds the lease: it is doing this work
    await withLease(questionnaireId, (alive) => generate(questionnaireId, operationId, alive))
  }

  async function generate(
    questionnaireId: number,
    operationId: number,
    alive: () => boolean = () => true,
  ) {
    const { rows } = await pool.query<{ org_id: string; status: string }>(
      'select org_id, status from questionnaires where id = $1',
      [questionnaireId],
    )
    const head = rows[0]
    if (head?.status !== 'generating') return
    const orgId = Number(head.org_id)
    // passages ingested while the model was away get their vectors now
    if (deps.embedder) await embedMissing(deps.database, deps.embedder, log, { orgId })
    const [library, index] = await Promise.all([
      loadLibrary(deps.database, orgId, questionnaireId),
      loadPassageIndex(deps.database, orgId, deps.embedder?.name),
    ])
    // the answers the file arrived with are drafted only where the run was asked to (issue 39);
    // the operation says so, so that a resumed run does the same
    const { rows: asked } = await pool.query<{ summary: string }>(
      'select summary from questionnaire_operations where id = $1',
      [operationId],
    )
    const withExisting = asked[0]?.summary.endsWith(WITH_EXISTING) ?? false
    const statuses = withExisting
      ? ['pending', 'failed', 'generating', 'existing']
      : ['pending', 'failed', 'generating']
    // questions a person has not answered; a restarted job picks up where it stopped
    const { rows: todo } = await pool.query<QuestionDb>(
      `select qq.id, qq.text, qq.ref, qq.position, qq.tab_id, qq.section, qq.vocabulary, qq.selected_rank,
              ${PREVIOUS_QUESTION}
         from questionnaire_questions qq
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where qq.questionnaire_id = $1 and qq.deleted_at is null and a.status = any($2::text[])
        order by qq.position`,
      [questionnaireId, statuses],
    )
    // progress is over every question, so that a resumed run shows at once what is already done
    const { rows: counts } = await pool.query<{ questions: string }>(
      'select count(*) as questions from questionnaire_questions where questionnaire_id = $1 and deleted_at is null',
      [questionnaireId],
    )
    const all = Math.max(Number(counts[0]?.questions ?? 0), todo.length)
    const before = all - todo.length
    const total = todo.length
    let done = 0
    const progressOf = (finished: number) =>
      Math.min(99, Math.round(((before + finished) / Math.max(1, all)) * 100))
    const labelOf = (finished: number) =>
      `Answered ${(before + finished).toLocaleString('en')} of ${all.toLocaleString('en')} questions`
    if (total)
      await pool.query(
        `update questionnaires set progress = $2, progress_label = $3, updated_at = now()
          where id = $1 and status = 'generating'`,
        [
          questionnaireId,
          progressOf(0),
          before ? `Resuming: ${labelOf(0).toLowerCase()}` : labelOf(0),
        ],
      )
    for (let start = 0; start < todo.length; start += BATCH) {
      if (!alive()) throw new Error(LEASE_LOST)
      const batch = todo.slice(start, start + BATCH)
      const vectors = await batchVectors(
        batch.map((question) => question.text),
        index,
      )
      const answers = []
      for (const [position, question] of batch.entries())
        answers.push(
          await answerQuestion(orgId, library, question, undefined, index, vectors[position]),
        )
      const client = await pool.connect()
      let stop = false
      try {
        await client.query('begin')
        const locked = await client.query<{ status: string }>(
          'select status from questionnaires where id = $1 for update',
          [questionnaireId],
        )
        if (!alive()) throw new Error(LEASE_LOST)
        if (locked.rows[0]?.status !== 'generating') {
          await client.query('rollback')
          return // cancelled or deleted
        }
        const changes: Change[] = []
        let answeredNow = 0
        const adding = answers.filter(gives).length
        try {
          await deps.questionnaires.checkAnswerLimit(client, orgId, adding)
        } catch (error) {
          await client.query('rollback')
          const maxAnswers = (await limitOf(pool, orgId, 'max_answers', false)) ?? 0
          await pool.query(
            `update questionnaires set status = 'ready', progress = 100, progress_label = null, error = null,
                updated_at = now() where id = $1`,
            [questionnaireId],
          )
          log.info(
            { questionnaireId, err: String(error) },
            'generation stopped at the answers limit',
          )
          const { rows: op } = await pool.query<{ answered_count: number }>(
            'select answered_count from questionnaire_operations where id = $1',
            [operationId],
          )
          const answeredSoFar = op[0]?.answered_count ?? 0
          await pool.query(`update questionnaire_operations set summary = $2 where id = $1`, [
            operationId,
            `Generated ${answeredSoFar.toLocaleString('en')} answers, then stopped: ${fillText(QUESTIONNAIRE_TEXTS.answersLimit, { max_answers: maxAnswers })}`,
          ])
          return
        }
        for (const [index, question] of batch.entries()) {
          // never overwrite what a person wrote meanwhile
          const current = await client.query<{ status: AnswerStatus }>(
            'select a.status from questionnaire_answers a join questionnaire_questions qq on qq.id = a.question_id and a.rank = qq.selected_rank where qq.id = $1 and qq.deleted_at is null',
            [question.id],
          )
          const status = current.rows[0]?.status
          if (!status || HUMAN.includes(status)) continue
          const answer = answers[index] as EngineAnswer
          if (gives(answer)) answeredNow += 1
          changes.push(
            ...(await writeCandidates(client, orgId, questionnaireId, question, answer, null)),
          )
        }
        done += batch.length
        // the counts are the operation's own, so a run resumed after a crash adds to them
        await client.query(
          `update questionnaire_operations set changes = changes || $2::jsonb,
              question_count = question_count + $3, answered_count = answered_count + $4,
              summary = format('Generated answers: %s of %s questions answered%s',
                to_char(answered_count + $4, 'FM999,999,999'), to_char(question_count + $3, 'FM999,999,999'), $5::text)
            where id = $1`,
          [
            operationId,
            JSON.stringify(changes),
            batch.length,
            answeredNow,
            withExisting ? WITH_EXISTING : '',
          ],
        )
        stop = done >= total
        await client.query(
          `update questionnaires set revision = revision + 1, updated_at = now(), progress = $2,
              progress_label = $3 where id = $1`,
          [questionnaireId, stop ? 100 : progressOf(done), labelOf(done)],
        )
        // the questionnaire's viewers see the batch arrive (issue 29)
        const [notify, values] = notifyStatement({
          key: `questionnaire:${questionnaireId}`,
          org: orgId,
          type: 'change',
          data: { kind: 'answers', question_ids: batch.map((q) => q.id), by: null, revision: null },
        })
        await client.query(notify, values)
        await client.query('commit')
      } catch (error) {
        await client.query('rollback').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    }
    const finished = await pool.query<{ name: string; questions: number; answered: number }>(
      `update questionnaires q set status = 'ready', progress = 100, progress_label = null, updated_at = now()
        where q.id = $1 and q.status = 'generating'
        returning q.name,
          (select count(*)::int from questionnaire_questions where questionnaire_id = q.id) as questions,
          (select count(distinct question_id)::int from questionnaire_answers a
            where a.questionnaire_id = q.id and (a.text <> '' or a.choice is not null)) as answered`,
      [questionnaireId],
    )
    // issue 41: the organisation's endpoints hear that the drafting is done
    const drafted = finished.rows[0]
    if (drafted)
      await emitWebhook(pool, orgId, 'generation.completed', {
        questionnaire_id: questionnaireId,
        name: drafted.name,
        questions: drafted.questions,
        answered: drafted.answered,
      })
    if (!total) {
      await pool.query(
        `update questionnaire_operations set summary = 'Generated answers: every question was already answered'
          where id = $1 and question_count = 0`,
        [operationId],
      )
    }
  }

  /**
   * After a crash: a generation whose lease no live process holds is queued again at once and
   * resumes where it stopped (DU2). A run in progress on any node holds its lease and is left be.
   */
  async function recover(quietMs = 0) {
    // `quietMs`: leave alone a run that moved lately (one still waiting in the queue holds no lease)
    const { rows } = await pool.query<{ id: string; operation_id: string | null }>(
      `select q.id, (select max(o.id) from questionnaire_operations o where o.questionnaire_id = q.id and o.kind = 'generate') as operation_id
         from questionnaires q
        where q.status = 'generating' and q.updated_at <= now() - ($1::int * interval '1 millisecond')`,
      [quietMs],
    )
    let resumed = 0
    for (const row of rows) {
      const id = Number(row.id)
      const orphaned = await withLease(id, async () => undefined)
      if (!orphaned) continue
      resumed += 1
      if (row.operation_id) {
        log.info({ questionnaireId: id }, 'resuming a generation that was cut off')
        await queue(id, Number(row.operation_id))
      } else
        await pool.query(
          `update questionnaires set status = 'ready', progress = 100, progress_label = null where id = $1`,
          [row.id],
        )
    }
    return resumed
  }

  /* ------------------------------------------------------------ one answer */

  return { start, cancel, run, recover }
}

export type Generation = ReturnType<typeof createGeneration>
