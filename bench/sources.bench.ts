import { randomUUID } from 'node:crypto'
import { createLogger } from '../server/logger.ts'
import { createAnsweringService } from '../server/modules/answering/service.ts'
import { createQuestionnaireService } from '../server/modules/questionnaires/service.ts'
import { benchDatabase, round, seedAccount, syntheticText, tempDataDir } from './support.ts'

/**
 * Issue 28's budget: a document cited by 2,000 answers is replaced by a version in which the
 * quoted sentences changed; checking every answer that quotes it and flagging them (what runs
 * once the new version's passages are stored, before the file shows as ready) takes < 2 s.
 * Figures: the check when every quote changed (2,000 flagged), when half changed, and when none
 * did (nothing flagged), median of 5 each, on a 400-passage document.
 */
const ANSWERS = 2_000
const PASSAGES = 400
const RUNS = 5

const dataDir = tempDataDir()
const { database, stop } = await benchDatabase(dataDir, 4)
try {
  const { pool } = database
  const { orgId } = await seedAccount(pool, {
    name: 'Sources bench',
    license: { users: 10, repository: 100, questionnaires: 100, answers: 100_000 },
  })
  const text = syntheticText(28)
  // the document's first version: each passage two sentences
  const sentences = Array.from({ length: PASSAGES * 2 }, () => `${text.sentence(16)}.`)
  const file = await pool.query<{ id: string }>(
    `insert into repository_files (org_id, name, kind, mime, status, version)
     values ($1, 'Policy.pdf', 'pdf', 'application/pdf', 'ready', 2) returning id`,
    [orgId],
  )
  const fileId = Number(file.rows[0]?.id)
  const writePassages = async (changed: (index: number) => boolean) => {
    await pool.query('delete from file_passages where file_id = $1', [fileId])
    const passages = Array.from({ length: PASSAGES }, (_, p) =>
      [2 * p, 2 * p + 1]
        .map((i) =>
          changed(i) ? `${sentences[i]?.slice(0, -1)} where the customer asks.` : sentences[i],
        )
        .join(' '),
    )
    await pool.query(
      `insert into file_passages (org_id, file_id, ordinal, text)
       select $1, $2, n - 1, t from unnest($3::text[]) with ordinality as x(t, n)`,
      [orgId, fileId, passages],
    )
  }
  // one questionnaire of 2,000 answers, each quoting one sentence of the document
  const q = await pool.query<{ id: string }>(
    `insert into questionnaires (org_id, name, kind, mime, storage_key, status)
     values ($1, 'Bench CAIQ', 'xlsx', 'application/octet-stream', $2, 'ready') returning id`,
    [orgId, randomUUID()],
  )
  const questionnaireId = Number(q.rows[0]?.id)
  const tab = await pool.query<{ id: string }>(
    `insert into questionnaire_tabs (org_id, questionnaire_id, name, position) values ($1, $2, 'Controls', 0) returning id`,
    [orgId, questionnaireId],
  )
  const quoted = Array.from({ length: ANSWERS }, (_, i) => i % sentences.length)
  await pool.query(
    `insert into questionnaire_questions (org_id, questionnaire_id, tab_id, position, text, match_key)
     select $1, $2, $3, n - 1, 'Question ' || n, 'q' || n from generate_series(1, $4::int) as n`,
    [orgId, questionnaireId, Number(tab.rows[0]?.id), ANSWERS],
  )
  await pool.query(
    `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank, text, choice, status, confidence, citations)
     select $1, $2, qq.id, 0, 'Yes.', 'Yes', 'generated', 0.9, c.citations::jsonb
       from questionnaire_questions qq
       join unnest($3::text[]) with ordinality as c(citations, n) on qq.position = c.n - 1
      where qq.questionnaire_id = $2`,
    [
      orgId,
      questionnaireId,
      quoted.map((i) =>
        JSON.stringify([
          {
            source: 'file',
            kind: 'document',
            id: fileId,
            title: 'Policy.pdf',
            snippet: sentences[i],
          },
        ]),
      ),
    ],
  )
  await pool.query('analyze')

  const logger = createLogger('silent')
  const questionnaires = createQuestionnaireService({
    database,
    logger,
    storage: undefined as never,
    parseLimits: {},
  })
  const answering = createAnsweringService({ database, logger, questionnaires })
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

  async function scenario(changed: (index: number) => boolean) {
    await writePassages(changed)
    const times: number[] = []
    let flagged = 0
    for (let run = 0; run < RUNS; run++) {
      await pool.query('update questionnaire_answers set source_change = null where org_id = $1', [
        orgId,
      ])
      const started = performance.now()
      flagged = await answering.checkSources(orgId, fileId, 2)
      times.push(performance.now() - started)
    }
    return { ms: round(median(times)), flagged }
  }

  const all = await scenario(() => true)
  const half = await scenario((i) => i % 2 === 0)
  const none = await scenario(() => false)
  console.log(
    JSON.stringify({
      bench: 'sources',
      answers_quoting: ANSWERS,
      passages: PASSAGES,
      all_changed_ms: all.ms,
      all_changed_flagged: all.flagged,
      half_changed_ms: half.ms,
      half_changed_flagged: half.flagged,
      unchanged_ms: none.ms,
      unchanged_flagged: none.flagged,
      budget_ms: 2_000,
    }),
  )
} finally {
  await stop()
}
