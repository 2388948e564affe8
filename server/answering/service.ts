import { fillText } from '../../contract/knowledge.ts'
import {
  type AnswerStatus,
  type Citation,
  type OperationKind,
  QUESTIONNAIRE_TEXTS,
} from '../../contract/questionnaires.ts'
import { type Database, inTransaction } from '../db/index.ts'
import { apiError, notFound } from '../http/errors.ts'
import type { Jobs } from '../jobs/index.ts'
import type { Logger } from '../logger.ts'
import { questionKey } from '../modules/knowledge/service.ts'
import type { Change, QuestionnaireService } from '../modules/questionnaires/service.ts'
import { type Embedder, embedMissing, fuse, semanticSearch } from './embeddings.ts'
import {
  answerFromEvidence,
  type Candidate,
  type EngineAnswer,
  Library,
  loadLibrary,
  loadPassageIndex,
  type PassageHit,
  type PassageIndex,
  searchPassages,
} from './engine.ts'
import { type LlmEngine, toEvidence } from './llm.ts'
import { leadingChoice, sentences, terms } from './text.ts'

/**
 * Answering a questionnaire: generation as a job with per-question progress (resumable, never
 * touching answers a person edited or approved, DU2), and the review operations of one answer or
 * a section. Every run is one operation in the history and one undo.
 */

export const GENERATE_JOB = 'questionnaire.generate'
/** The class of the advisory locks that lease a generation run to one process. */
const GENERATION_LOCK_CLASS = 7231
const BATCH = 40

type Queryable = Pick<Database['pool'], 'query'>

interface AnswerState {
  text: string
  choice: string | null
  comment: string
  status: AnswerStatus
  confidence: number | null
  citations: Citation[]
  note: string | null
}

interface AnswerDb extends AnswerState {
  id: string
  rank: number
}

interface QuestionDb {
  id: string
  text: string
  ref: string | null
  position: number
  tab_id: string
  section: string | null
  vocabulary: string[] | null
  selected_rank: number
}

const stateOf = (row: AnswerState): AnswerState => ({
  text: row.text,
  choice: row.choice,
  comment: row.comment,
  status: row.status,
  confidence: row.confidence,
  citations: row.citations,
  note: row.note,
})

const isAnswered = (state: AnswerState) =>
  ['generated', 'edited', 'approved'].includes(state.status) &&
  (state.text !== '' || state.choice !== null)

const HUMAN: AnswerStatus[] = ['edited', 'approved']

/** Whether the engine gave an answer (not only candidates it declined to choose between). */
const gives = (answer: EngineAnswer) =>
  answer.candidates.length > 0 && !answer.candidates[0]?.withheld

export const LLM_REQUIRED =
  'A language model must be configured for custom instructions. Set LLM_BASE_URL and LLM_MODEL, or use consistency, shorten or examples.'

export function createAnsweringService(deps: {
  database: Database
  logger: Logger
  jobs?: Jobs
  questionnaires: QuestionnaireService
  /** The language-model engine, when LLM_BASE_URL and LLM_MODEL are set. */
  llm?: LlmEngine
  /** The embedding model, when EMBEDDING_MODEL is set: passages are also found by meaning. */
  embedder?: Embedder
}) {
  const { pool } = deps.database
  const log = deps.logger.child({ component: 'answering' })

  /** Writes a question's candidates; returns the changes for the history. */
  async function writeCandidates(
    client: Queryable,
    orgId: number,
    questionnaireId: number,
    question: QuestionDb,
    answer: EngineAnswer,
    userId: number | null,
  ): Promise<Change[]> {
    const { rows: existing } = await client.query<AnswerDb>(
      `select id, rank, text, choice, comment, status, confidence, citations, note
         from questionnaire_answers where question_id = $1 order by rank for update`,
      [question.id],
    )
    const changes: Change[] = []
    const keepComment = existing.find((row) => row.rank === question.selected_rank)?.comment ?? ''
    const next: AnswerState[] = answer.candidates.length
      ? answer.candidates.map((candidate: Candidate) =>
          candidate.withheld
            ? {
                text: '',
                choice: null,
                comment: keepComment,
                status: 'no_answer' as const,
                confidence: 0,
                citations: candidate.citations,
                note: candidate.withheld,
              }
            : {
                text: candidate.text,
                choice: candidate.choice,
                comment: keepComment,
                status: 'generated' as const,
                confidence: Math.round(candidate.confidence * 1000) / 1000,
                citations: candidate.citations,
                note: candidate.reason ?? null,
              },
        )
      : [
          {
            text: '',
            choice: null,
            comment: keepComment,
            status: 'no_answer' as const,
            confidence: 0,
            citations: [],
            note: answer.note,
          },
        ]
    const ranks = Math.max(next.length, existing.length)
    for (let rank = 0; rank < ranks; rank++) {
      const before = existing.find((row) => row.rank === rank)
      const after: AnswerState = next[rank] ?? {
        text: '',
        choice: null,
        comment: '',
        status: 'pending',
        confidence: null,
        citations: [],
        note: null,
      }
      if (before) {
        const old = stateOf(before)
        if (JSON.stringify(old) === JSON.stringify(after)) continue
        changes.push(
          await deps.questionnaires.writeAnswer(client, Number(before.id), old, after, userId),
        )
      } else {
        const { rows } = await client.query<{ id: string }>(
          `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank, text, choice, comment, status, confidence, citations, note, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
          [
            orgId,
            questionnaireId,
            question.id,
            rank,
            after.text,
            after.choice,
            after.comment,
            after.status,
            after.confidence,
            JSON.stringify(after.citations),
            after.note,
            userId,
          ],
        )
        changes.push({ t: 'a', id: Number(rows[0]?.id), before: null, after })
      }
    }
    if (question.selected_rank !== 0) {
      await client.query('update questionnaire_questions set selected_rank = 0 where id = $1', [
        question.id,
      ])
      changes.push({
        t: 'q',
        id: Number(question.id),
        before: { selected_rank: question.selected_rank, deleted: false },
        after: { selected_rank: 0, deleted: false },
      })
    }
    return changes
  }

  /** A batch's question vectors in one call, when the passages have vectors to compare with. */
  async function batchVectors(texts: string[], index: PassageIndex) {
    if (!deps.embedder || !index.hasVectors) return []
    try {
      return await deps.embedder.embed(texts)
    } catch (error) {
      log.warn({ err: String(error) }, 'embedding questions failed; passages found by words')
      return []
    }
  }

  /** Passages close in meaning to the question (none without an embedding model). */
  async function nearestPassages(
    orgId: number,
    text: string,
    evidence: { fileIds?: number[] } | undefined,
    index: PassageIndex | undefined,
    vector: Float32Array | null | undefined,
  ): Promise<PassageHit[]> {
    const { embedder } = deps
    if (!embedder) return []
    if (index && !evidence) return vector && index.hasVectors ? index.nearest(vector) : []
    try {
      const [own] = await embedder.embed([text])
      if (!own) return []
      return await semanticSearch(deps.database, orgId, embedder, own, {
        fileIds: evidence?.fileIds,
      })
    } catch (error) {
      log.warn({ err: String(error) }, 'embedding the question failed; passages found by words')
      return []
    }
  }

  async function answerQuestion(
    orgId: number,
    library: Library,
    question: { text: string; vocabulary: string[] | null },
    evidence?: { text?: string; fileIds?: number[] },
    index?: PassageIndex,
    /** The question's vector, when the job embedded its batch at once. */
    vector?: Float32Array | null,
  ): Promise<EngineAnswer> {
    const matches = evidence?.fileIds?.length ? [] : library.match(question.text)
    const strong = matches.some((match) => match.score >= 0.6)
    const find = async () => {
      const lexical =
        index && !evidence
          ? index.search(question.text)
          : await searchPassages(deps.database, orgId, question.text, {
              fileIds: evidence?.fileIds,
            })
      const semantic = await nearestPassages(orgId, question.text, evidence, index, vector)
      // then the answer text of the library: what approved answers say about other questions
      const narratives = evidence?.fileIds?.length ? [] : library.narratives().search(question.text)
      const lists = [lexical, semantic, narratives].filter((list) => list.length)
      return lists.length > 1 ? fuse(lists, 12) : (lists[0] ?? [])
    }
    let passages: PassageHit[] = []
    if (!strong || evidence) passages = await find()
    if (evidence?.text?.trim()) {
      passages.unshift({
        id: 0,
        fileId: null,
        source: 'evidence',
        title: 'Evidence you added',
        text: evidence.text.trim(),
        location: null,
        rank: 1,
      })
    }
    if (deps.llm) {
      // the model sees the passages too, even when the library matched
      if (strong && !evidence) passages = await find()
      return deps.llm.answer(orgId, question, toEvidence(matches, passages))
    }
    const practice = evidence?.fileIds?.length ? [] : library.about(question.text)
    return answerFromEvidence(question, matches, passages, library.space, practice)
  }

  /* ------------------------------------------------------------ generation job */

  /**
   * POST generate/: one run per questionnaire at a time. The status moves from ready to
   * generating in one conditional UPDATE, so of two parallel calls exactly one starts a run; the
   * other gets 409 with the id of the run in progress (its operation in the history).
   */
  async function start(orgId: number, userId: number, questionnaireId: number) {
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
         values ($1, $2, 'generate', 'Generated answers', $3) returning id`,
        [orgId, questionnaireId, userId],
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

  async function withLease(questionnaireId: number, work: () => Promise<void>) {
    const lease = await pool.connect()
    let held = false
    let broken = false
    try {
      const { rows } = await lease.query<{ ok: boolean }>(LEASE_SQL('pg_try_advisory_lock'), [
        questionnaireId,
      ])
      held = rows[0]?.ok === true
      if (!held) return false
      await work()
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
    await withLease(questionnaireId, () => generate(questionnaireId, operationId))
  }

  async function generate(questionnaireId: number, operationId: number) {
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
      loadLibrary(deps.database, orgId),
      loadPassageIndex(deps.database, orgId, deps.embedder?.name),
    ])
    // questions a person has not answered; a restarted job picks up where it stopped
    const { rows: todo } = await pool.query<QuestionDb>(
      `select qq.id, qq.text, qq.ref, qq.position, qq.tab_id, qq.section, qq.vocabulary, qq.selected_rank
         from questionnaire_questions qq
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where qq.questionnaire_id = $1 and qq.deleted_at is null and a.status in ('pending', 'failed', 'generating')
        order by qq.position`,
      [questionnaireId],
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
          const { rows: license } = await pool.query<{ max_answers: number }>(
            'select max_answers from licenses where org_id = $1',
            [orgId],
          )
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
            `Generated ${answeredSoFar.toLocaleString('en')} answers, then stopped: ${fillText(QUESTIONNAIRE_TEXTS.answersLimit, { max_answers: license[0]?.max_answers ?? 0 })}`,
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
              summary = format('Generated answers: %s of %s questions answered',
                to_char(answered_count + $4, 'FM999,999,999'), to_char(question_count + $3, 'FM999,999,999'))
            where id = $1`,
          [operationId, JSON.stringify(changes), batch.length, answeredNow],
        )
        stop = done >= total
        await client.query(
          `update questionnaires set revision = revision + 1, updated_at = now(), progress = $2,
              progress_label = $3 where id = $1`,
          [questionnaireId, stop ? 100 : progressOf(done), labelOf(done)],
        )
        await client.query('commit')
      } catch (error) {
        await client.query('rollback').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    }
    await pool.query(
      `update questionnaires set status = 'ready', progress = 100, progress_label = null, updated_at = now()
        where id = $1 and status = 'generating'`,
      [questionnaireId],
    )
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

  async function questionOfAnswer(orgId: number, answerId: number) {
    const { rows } = await pool.query<
      QuestionDb & { questionnaire_id: string; answer_rank: number }
    >(
      `select qq.id, qq.text, qq.ref, qq.position, qq.tab_id, qq.section, qq.vocabulary, qq.selected_rank,
              qq.questionnaire_id, a.rank as answer_rank
         from questionnaire_answers a join questionnaire_questions qq on qq.id = a.question_id
        where a.org_id = $1 and a.id = $2 and qq.deleted_at is null`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    return row
  }

  const label = (row: { ref: string | null; position: number }) =>
    row.ref ?? `question ${row.position + 1}`

  async function regenerate(
    orgId: number,
    userId: number,
    answerId: number,
    evidence?: { text?: string; fileIds?: number[] },
  ) {
    const question = await questionOfAnswer(orgId, answerId)
    const questionnaireId = Number(question.questionnaire_id)
    if (evidence?.fileIds?.length) {
      const { rows } = await pool.query<{ id: string }>(
        'select id from repository_files where org_id = $1 and id = any($2::bigint[])',
        [orgId, evidence.fileIds],
      )
      if (rows.length !== new Set(evidence.fileIds).size) throw notFound('File not found')
    }
    const library = await loadLibrary(deps.database, orgId)
    const answer = await answerQuestion(orgId, library, question, evidence)
    return deps.questionnaires.change(orgId, questionnaireId, userId, async (client) => {
      const fresh = await client.query<{ selected_rank: number }>(
        'select selected_rank from questionnaire_questions where id = $1 for update',
        [question.id],
      )
      const current = { ...question, selected_rank: fresh.rows[0]?.selected_rank ?? 0 }
      const before = await client.query<AnswerState>(
        'select * from questionnaire_answers where question_id = $1 and rank = $2',
        [question.id, current.selected_rank],
      )
      if (gives(answer) && before.rows[0] && !isAnswered(before.rows[0]))
        await deps.questionnaires.checkAnswerLimit(client, orgId, 1)
      const changes = await writeCandidates(client, orgId, questionnaireId, current, answer, userId)
      const kind: OperationKind = evidence ? 'regenerate_with_evidence' : 'regenerate'
      return {
        kind,
        summary: `${evidence ? 'Regenerated with evidence' : 'Regenerated'} the answer to ${label(question)}${gives(answer) ? '' : answer.candidates.length ? ': the records disagree' : ': no evidence found'}`,
        changes,
      }
    })
  }

  /** Rows of a tab (or given questions) with their selected answers, for section operations. */
  async function sectionRows(
    client: Queryable,
    orgId: number,
    questionnaireId: number,
    scope: { tab_id?: number; question_ids?: number[] },
  ) {
    const values: unknown[] = [orgId, questionnaireId]
    let filter = ''
    if (scope.question_ids?.length) {
      values.push(scope.question_ids)
      filter = `and qq.id = any($${values.length}::bigint[])`
    } else if (scope.tab_id) {
      values.push(scope.tab_id)
      filter = `and qq.tab_id = $${values.length}`
    }
    const { rows } = await client.query<
      QuestionDb & AnswerState & { answer_id: string; citations: Citation[] }
    >(
      `select qq.id, qq.text, qq.ref, qq.position, qq.tab_id, qq.section, qq.vocabulary, qq.selected_rank,
              a.id as answer_id, a.text as text_answer, a.choice, a.comment, a.status, a.confidence, a.citations, a.note
         from questionnaire_questions qq
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where qq.org_id = $1 and qq.questionnaire_id = $2 and qq.deleted_at is null ${filter}
        order by qq.position
        for update of a`,
      values,
    )
    return rows.map((row) => {
      const raw = row as unknown as Record<string, unknown>
      return {
        question: row,
        answerId: Number(raw.answer_id),
        state: {
          text: String(raw.text_answer ?? ''),
          choice: row.choice,
          comment: row.comment,
          status: row.status,
          confidence: row.confidence,
          citations: row.citations,
          note: row.note,
        } as AnswerState,
      }
    })
  }

  const normalise = (text: string) => terms(text).join(' ')
  const yesNo = (state: AnswerState) => {
    const value = (state.choice ?? state.text).trim().toLowerCase()
    if (/^yes\b/.test(value)) return 'yes'
    if (/^no\b/.test(value)) return 'no'
    return null
  }

  /** Copies an approved (or chosen) answer to the questions that ask the same thing. */
  async function applyConsistency(orgId: number, userId: number, answerId: number) {
    const source = await questionOfAnswer(orgId, answerId)
    const questionnaireId = Number(source.questionnaire_id)
    let contradictions: { question_id: number; ref: string | null }[] = []
    const result = await deps.questionnaires.change(
      orgId,
      questionnaireId,
      userId,
      async (client) => {
        const rows = await sectionRows(client, orgId, questionnaireId, {})
        const origin = rows.find((row) => Number(row.question.id) === Number(source.id))
        if (!origin || !isAnswered(origin.state))
          throw apiError(400, 'Answer the question before applying its answer to others', {
            code: 'validation_error',
          })
        const key = normalise(origin.question.text)
        const changes: Change[] = []
        for (const row of rows) {
          if (row === origin || normalise(row.question.text) !== key) continue
          if (row.state.status === 'approved') {
            if (yesNo(row.state) && yesNo(origin.state) && yesNo(row.state) !== yesNo(origin.state))
              contradictions.push({ question_id: Number(row.question.id), ref: row.question.ref })
            continue
          }
          const choice =
            origin.state.choice && row.question.vocabulary?.includes(origin.state.choice)
              ? origin.state.choice
              : row.question.vocabulary?.length
                ? null
                : origin.state.choice
          const after: AnswerState = {
            ...row.state,
            text: origin.state.text,
            choice,
            status: 'edited',
            confidence: origin.state.confidence,
            citations: origin.state.citations,
            note: null,
          }
          if (!isAnswered(row.state) && isAnswered(after))
            await deps.questionnaires.checkAnswerLimit(client, orgId, 1)
          changes.push(
            await deps.questionnaires.writeAnswer(client, row.answerId, row.state, after, userId),
          )
        }
        return {
          kind: 'apply_consistency',
          summary: `Applied the answer to ${label(origin.question)} to ${changes.length} matching question${changes.length === 1 ? '' : 's'}`,
          changes,
        }
      },
    )
    contradictions = contradictions.slice(0, 50)
    return { ...result, contradictions }
  }

  /** Section operations over a tab or a list of questions. */
  async function section(
    orgId: number,
    userId: number,
    questionnaireId: number,
    kind: 'consistency' | 'shorten' | 'examples' | 'custom',
    scope: { tab_id?: number; question_ids?: number[]; instruction?: string },
  ) {
    if (kind === 'custom' && !deps.llm)
      throw apiError(400, LLM_REQUIRED, { code: 'llm_not_configured' })
    if (kind === 'custom' && !scope.instruction?.trim())
      throw apiError(400, 'Write the instruction to apply', { code: 'validation_error' })
    await deps.questionnaires.get(orgId, questionnaireId)
    // with a language model, shorten, examples and custom instructions are rewrites from evidence
    const rewrites = new Map<number, { text: string; citations: Citation[] }>()
    if (deps.llm && kind !== 'consistency') {
      const llm = deps.llm
      const library = await loadLibrary(deps.database, orgId)
      const candidates = await sectionRows(pool, orgId, questionnaireId, scope)
      const task =
        kind === 'shorten'
          ? 'Shorten the answer to one or two sentences without losing what it commits to.'
          : kind === 'examples'
            ? 'Add one or two concrete examples taken from the evidence to the answer.'
            : `Apply this instruction from the reviewer to the answer: ${scope.instruction}`
      await Promise.all(
        candidates
          .filter((row) => isAnswered(row.state) && row.state.status !== 'approved')
          .map(async (row) => {
            const matches = library.match(row.question.text)
            const passages = await searchPassages(deps.database, orgId, row.question.text, {
              limit: 6,
            })
            const result = await llm.rewrite(
              orgId,
              task,
              row.question.text,
              row.state.text,
              toEvidence(matches, passages),
            )
            if (result && result.text !== row.state.text)
              rewrites.set(Number(row.question.id), result)
          }),
      )
    }
    const contradictions: { question_id: number; ref: string | null; other_id: number }[] = []
    const library = kind === 'examples' ? await loadLibrary(deps.database, orgId) : null
    const examples = new Map<number, string>()
    if (kind === 'examples' && library) {
      // evidence is looked up before the transaction: searches do not hold row locks
      const rows = await sectionRows(pool, orgId, questionnaireId, scope)
      for (const row of rows) {
        if (!isAnswered(row.state)) continue
        const passages = await searchPassages(
          deps.database,
          orgId,
          `${row.question.text} ${row.state.text}`,
          {
            limit: 8,
          },
        )
        const found = passages
          .flatMap((passage) => sentences(passage.text))
          .find(
            (sentence) =>
              /\b(for example|such as|e\.g\.|including|for instance)\b/i.test(sentence) &&
              !row.state.text.includes(sentence),
          )
        if (found) examples.set(Number(row.question.id), found)
      }
    }
    const result = await deps.questionnaires.change(
      orgId,
      questionnaireId,
      userId,
      async (client) => {
        const rows = await sectionRows(client, orgId, questionnaireId, scope)
        const changes: Change[] = []
        if (kind === 'consistency') {
          // questions asking the same thing get the answer of the best one (approved, then most confident)
          const groups = new Map<string, typeof rows>()
          for (const row of rows) {
            const key = normalise(row.question.text)
            groups.set(key, [...(groups.get(key) ?? []), row])
          }
          for (const group of groups.values()) {
            if (group.length < 2) continue
            const answeredRows = group.filter((row) => isAnswered(row.state))
            const best = [...answeredRows].sort(
              (a, b) =>
                Number(b.state.status === 'approved') - Number(a.state.status === 'approved') ||
                (b.state.confidence ?? 0) - (a.state.confidence ?? 0),
            )[0]
            if (!best) continue
            for (const row of group) {
              if (row === best) continue
              if (row.state.status === 'approved') {
                if (yesNo(row.state) && yesNo(best.state) && yesNo(row.state) !== yesNo(best.state))
                  contradictions.push({
                    question_id: Number(row.question.id),
                    ref: row.question.ref,
                    other_id: Number(best.question.id),
                  })
                continue
              }
              if (row.state.text === best.state.text && row.state.choice === best.state.choice)
                continue
              const after: AnswerState = {
                ...row.state,
                text: best.state.text,
                choice:
                  best.state.choice &&
                  (row.question.vocabulary ?? [best.state.choice]).includes(best.state.choice)
                    ? best.state.choice
                    : row.state.choice,
                status: 'edited',
                confidence: best.state.confidence,
                citations: best.state.citations,
                note: null,
              }
              if (!isAnswered(row.state))
                await deps.questionnaires.checkAnswerLimit(client, orgId, 1)
              changes.push(
                await deps.questionnaires.writeAnswer(
                  client,
                  row.answerId,
                  row.state,
                  after,
                  userId,
                ),
              )
            }
          }
        } else if (deps.llm) {
          for (const row of rows) {
            const rewrite = rewrites.get(Number(row.question.id))
            if (!rewrite || !isAnswered(row.state) || row.state.status === 'approved') continue
            changes.push(
              await deps.questionnaires.writeAnswer(
                client,
                row.answerId,
                row.state,
                {
                  ...row.state,
                  text: rewrite.text,
                  status: 'edited',
                  citations: rewrite.citations.length ? rewrite.citations : row.state.citations,
                },
                userId,
              ),
            )
          }
        } else {
          for (const row of rows) {
            if (!isAnswered(row.state) || row.state.status === 'approved') continue
            let text = row.state.text
            if (kind === 'shorten') {
              // extractive: the first sentence, or the first two when the first is very short
              const parts = sentences(text)
              const first = parts[0] ?? text
              const short = first.length < 30 && parts[1] ? `${first} ${parts[1]}` : first
              if (short.length >= text.length) continue
              text = short
            } else {
              const example = examples.get(Number(row.question.id))
              if (!example) continue
              text = `${text.trim()}${text.trim() ? '\n\n' : ''}For example: ${example}`
            }
            changes.push(
              await deps.questionnaires.writeAnswer(
                client,
                row.answerId,
                row.state,
                { ...row.state, text, status: 'edited' },
                userId,
              ),
            )
          }
        }
        const what = {
          consistency: 'Made answers consistent',
          shorten: 'Shortened answers',
          examples: 'Added examples to answers',
          custom: `Applied “${(scope.instruction ?? '').slice(0, 80)}”`,
        }[kind]
        return {
          kind: `section_${kind}` as OperationKind,
          summary: `${what}: ${changes.length} changed`,
          changes,
        }
      },
    )
    return { ...result, contradictions }
  }

  /** Adds an answer to the library as a Q&A item, or updates the item that asks the same question. */
  async function saveToLibrary(orgId: number, userId: number, answerId: number) {
    const { rows } = await pool.query<{
      question: string
      text: string
      choice: string | null
      name: string
    }>(
      `select qq.text as question, a.text, a.choice, q.name
         from questionnaire_answers a
         join questionnaire_questions qq on qq.id = a.question_id and qq.deleted_at is null
         join questionnaires q on q.id = a.questionnaire_id
        where a.org_id = $1 and a.id = $2`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    const answer = [row.choice && !row.text.trim() ? row.choice : '', row.text.trim()]
      .filter(Boolean)
      .join('')
    if (!answer) throw apiError(400, QUESTIONNAIRE_TEXTS.emptyAnswer, { code: 'validation_error' })
    const key = questionKey(row.question)
    const client = await pool.connect()
    try {
      await client.query('begin')
      const existing = await client.query<{ id: string }>(
        'select id from kb_qa_items where org_id = $1 and question_key = $2 order by id limit 1 for update',
        [orgId, key],
      )
      let id: number
      let created = false
      if (existing.rows[0]) {
        id = Number(existing.rows[0].id)
        await client.query(
          `update kb_qa_items set answer = $3, dropdown_value = $4, source = $5, updated_by = $6, updated_at = now()
            where org_id = $1 and id = $2`,
          [orgId, id, answer, row.choice, `Questionnaire: ${row.name}`.slice(0, 500), userId],
        )
      } else {
        const inserted = await client.query<{ id: string }>(
          `insert into kb_qa_items (org_id, question, answer, dropdown_value, source, question_key, created_by, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $7) returning id`,
          [
            orgId,
            row.question,
            answer,
            row.choice,
            `Questionnaire: ${row.name}`.slice(0, 500),
            key,
            userId,
          ],
        )
        id = Number(inserted.rows[0]?.id)
        created = true
      }
      await client.query('commit')
      return { item_id: id, created }
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  }

  /**
   * Library upkeep: Q&A items that ask the same question (same terms, or a match of 0.9 and more).
   * A group whose items answer Yes and No is a conflict; otherwise the copies are duplicates.
   */
  async function libraryHealth(orgId: number) {
    const { rows } = await pool.query<{
      id: string
      question: string
      answer: string
      dropdown_value: string | null
      updated_at: Date
    }>(
      'select id, question, answer, dropdown_value, updated_at from kb_qa_items where org_id = $1 order by id',
      [orgId],
    )
    const library = new Library(
      rows.map((row) => ({
        source: 'qa' as const,
        id: Number(row.id),
        fileId: null,
        title: '',
        question: row.question,
        // every item takes part, whatever its answer says
        answer: `${row.id}\u001f${row.answer}`,
        detail: '',
        dropdown: null,
        location: null,
      })),
    )
    const parent = new Map<number, number>()
    const find = (id: number): number => {
      const up = parent.get(id) ?? id
      if (up === id) return id
      const top = find(up)
      parent.set(id, top)
      return top
    }
    for (const row of rows) {
      for (const match of library.match(row.question, 6)) {
        if (match.score < 0.9 || match.entry.id === Number(row.id)) continue
        parent.set(find(match.entry.id), find(Number(row.id)))
      }
    }
    const groups = new Map<number, typeof rows>()
    for (const row of rows) {
      const root = find(Number(row.id))
      groups.set(root, [...(groups.get(root) ?? []), row])
    }
    return {
      groups: [...groups.values()]
        .filter((group) => group.length > 1)
        .map((group) => {
          const choices = new Set(
            group
              .map((item) => leadingChoice(item.dropdown_value ?? item.answer))
              .filter((choice) => choice !== null),
          )
          return {
            kind: choices.size > 1 ? ('conflict' as const) : ('duplicate' as const),
            items: group.map((item) => ({
              id: Number(item.id),
              question: item.question,
              answer: item.answer,
              dropdown_value: item.dropdown_value,
              updated_at: item.updated_at.toISOString(),
            })),
          }
        })
        .sort((a, b) => Number(b.kind === 'conflict') - Number(a.kind === 'conflict')),
    }
  }

  return {
    start,
    cancel,
    run,
    recover,
    regenerate,
    applyConsistency,
    section,
    answerQuestion,
    saveToLibrary,
    libraryHealth,
  }
}

export type AnsweringService = ReturnType<typeof createAnsweringService>
