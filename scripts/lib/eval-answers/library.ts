import type { Pool } from 'pg'
import { submissionField } from '../../../server/answering/submission.ts'

/**
 * The evaluation's own organisation in a fresh database, and what a protocol sets on its library
 * before answering: the date of each file (how old the library is) and the product each speaks for.
 */

/** One organisation with an evaluation license and one admin: the ids the services are given. */
export async function evaluationOrganisation(pool: Pool) {
  const { rows: orgs } = await pool.query<{ id: string }>(
    "insert into organizations (name) values ('Evaluation') returning id",
  )
  const orgId = Number(orgs[0]?.id)
  await pool.query(
    `insert into licenses (org_id, tier_name, max_users, max_repository, max_questionnaire, max_answers, is_evaluation, multi_language)
       values ($1, 'Evaluation', 5, 10000, 100, 1000000, true, false)`,
    [orgId],
  )
  const { rows: users } = await pool.query<{ id: string }>(
    `insert into users (org_id, email, first_name, last_name, role, status) values ($1, 'eval@example.com', 'Eval', 'Run', 'admin', 'active') returning id`,
    [orgId],
  )
  return { orgId, userId: Number(users[0]?.id) }
}

/**
 * How a protocol dates its library (protocol h): the library's files are `ageDays` old when the
 * questionnaire is answered, their review cycle `cycleDays` (the default unless set), and the age
 * bands of the calibration table apply (`bands`). A protocol without dating (a-g) has no dated
 * entries: its files' only date is their upload, so it is answered without the age bands.
 */
export interface Dating {
  /** The library's files are this many days old when the questionnaire is answered. */
  ageDays?: number
  /**
   * Or: the questionnaire is answered on this day (YYYY-MM-DD, a custom run's `--today`): each
   * file keeps its own date (the one it states, else its upload), aged as it would be that day.
   */
  answeredOn?: string
  cycleDays?: number
  bands: boolean
}

/** Dates the ingested library as `dating` says (undefined: read as of its own date). */
export async function dateLibrary(pool: Pool, orgId: number, dating: Dating | undefined) {
  if (dating?.answeredOn) {
    // answered on `answeredOn`: the engine answers today, so every file's own date moves
    // forward by the days from that day to today (each the same age as it would be then)
    // (a file that states no date of its own was uploaded that day: its age is 0 then as now)
    await pool.query(
      `update repository_files
          set stated_at = stated_at + make_interval(days => current_date - $2::date)
        where org_id = $1 and stated_at is not null`,
      [orgId, dating.answeredOn],
    )
  } else if (dating) {
    // the library's files were answered `ageDays` before the questionnaire: the engine answers
    // today, so their date (the one they state, which the engine reads first, and the upload's)
    // moves to that many days before today (the same age, and stale by the same cycle, as
    // answering on the newer file's own date)
    await pool.query(
      `update repository_files set stated_at = now() - make_interval(days => $2),
              created_at = created_at - make_interval(days => $2) where org_id = $1`,
      [orgId, dating.ageDays ?? 0],
    )
    if (dating.cycleDays)
      await pool.query('update organizations set review_cycle_days = $2 where id = $1', [
        orgId,
        dating.cycleDays,
      ])
  } else {
    // protocols a-g measure matching, not age: the library is read as of its own date (the
    // completed workbooks state the day they were answered, years before the engine's today,
    // which would make every entry stale); age is protocol h's
    await pool.query('update repository_files set stated_at = null where org_id = $1', [orgId])
  }
}

/**
 * Issue 38's `--product NAME`: the questionnaire is for NAME; each library file speaks for the
 * product its own product field names (a completed questionnaire's "Product name" row), else the
 * product its file name is, so that a sister product's answers are another product's.
 */
export async function assignProducts(
  pool: Pool,
  orgId: number,
  product: string,
  questionnaireId: number,
) {
  const ids = new Map<string, number>()
  const productId = async (name: string) => {
    const key = name.trim().toLowerCase()
    const known = ids.get(key)
    if (known) return known
    const { rows } = await pool.query<{ id: string }>(
      'insert into products (org_id, name) values ($1, $2) returning id',
      [orgId, name.trim()],
    )
    ids.set(key, Number(rows[0]?.id))
    return Number(rows[0]?.id)
  }
  await pool.query('update questionnaires set product_id = $3 where org_id = $1 and id = $2', [
    orgId,
    questionnaireId,
    await productId(product),
  ])
  const { rows: files } = await pool.query<{ id: string; name: string }>(
    'select id, name from repository_files where org_id = $1',
    [orgId],
  )
  for (const file of files) {
    const { rows } = await pool.query<{ qa_question: string; qa_answer: string }>(
      `select qa_question, qa_answer from file_passages
        where file_id = $1 and qa_question is not null and qa_answer is not null order by id`,
      [file.id],
    )
    const field = rows.find((row) => {
      const found = submissionField({ text: row.qa_question, vocabulary: null })
      return found?.subject === 'product' && found.head === 'name' && !found.qualifiers.length
    })
    const own = field?.qa_answer.trim().split('\n')[0]?.trim()
    const name = own || file.name.replace(/\.[a-z0-9]+$/i, '')
    await pool.query('update repository_files set product_id = $3 where org_id = $1 and id = $2', [
      orgId,
      file.id,
      await productId(name),
    ])
  }
}
