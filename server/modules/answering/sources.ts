import type { Citation, SourceChange } from '../../../contract/questionnaires.ts'
import { snippet } from '../../answering/cite.ts'
import { inTransaction } from '../../db/index.ts'
import type { AnsweringDeps, Queryable } from './shared.ts'
import { answerOfRow } from './store.ts'

/**
 * Answers that stay true when their documents change (issue 28). When a file's new version is
 * read, or the file is deleted, every answer quoting it is checked: a quoted passage the file no
 * longer holds (changed or dropped) flags the answer 'source changed' with the passage then and
 * the closest one now, until a person confirms, edits or regenerates it. Answers whose quotes still
 * stand are left alone. Library answers drawn from a completed questionnaire's rows are checked
 * against the new version's rows.
 */

const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim()
/** A quote without the ellipsis a long snippet ends with. */
const core = (quote: string) => normal(quote.replace(/…$/, ''))
const wordsOf = (text: string) => new Set(normal(text).match(/[\p{L}\p{N}]+/gu) ?? [])
function overlap(a: Set<string>, b: Set<string>) {
  if (!a.size || !b.size) return 0
  let shared = 0
  for (const word of a) if (b.has(word)) shared++
  return shared / (a.size + b.size - shared)
}
/** A passage nearer than this is shown as what the quote became. */
const NEAREST = 0.25
const SENTENCE = /(?<=[.!?])\s+(?=[\p{Lu}\d•-])/u

interface PassageDb {
  text: string
  qa_question: string | null
  qa_answer: string | null
}

/** What a file holds now, for checking quotes against and finding the nearest one. */
function holdings(passages: PassageDb[]) {
  const texts = passages.map((passage) => normal(passage.text))
  // a completed questionnaire's rows are quoted as the library quotes them
  const rows = new Set(
    passages.flatMap((passage) => {
      if (!passage.qa_question || passage.qa_answer === null) return []
      const row = answerOfRow({ qa_answer: passage.qa_answer, text: passage.text })
      const said = [row.answer, row.detail].filter(Boolean).join('. ')
      return [core(snippet(`${passage.qa_question} — ${said}`))]
    }),
  )
  const sentences = passages.flatMap((passage) =>
    passage.text
      // a heading is a line of its own, not the start of the sentence after it
      .split(/\n+/)
      .flatMap((line) => line.split(SENTENCE))
      .map((sentence) => sentence.trim())
      .filter(Boolean)
      .map((sentence) => ({ sentence, words: wordsOf(sentence) })),
  )
  const nearest = new Map<string, string | null>()
  return {
    holds(quote: string) {
      const wanted = core(quote)
      if (!wanted) return true
      return rows.has(wanted) || texts.some((text) => text.includes(wanted))
    },
    nearest(quote: string) {
      const cached = nearest.get(quote)
      if (cached !== undefined) return cached
      const words = wordsOf(quote)
      let best: string | null = null
      let score = NEAREST
      for (const candidate of sentences) {
        const value = overlap(words, candidate.words)
        if (value > score) {
          score = value
          best = candidate.sentence
        }
      }
      const found = best ? snippet(best) : null
      nearest.set(quote, found)
      return found
    },
  }
}

export function createSourceChecks(deps: AnsweringDeps) {
  const { pool } = deps.database

  /** Questionnaires whose answers changed: their revision moves (cached lists key on it). */
  const touch = (client: Queryable, orgId: number, ids: string[]) =>
    ids.length
      ? client.query(
          `update questionnaires set revision = revision + 1, updated_at = now()
            where org_id = $1 and id = any($2::bigint[])`,
          [orgId, ids],
        )
      : Promise.resolve()

  /**
   * Checks every answer of the organisation that quotes the file against what it holds now
   * (`version`; null: the file was deleted). Returns how many answers it flagged.
   */
  async function checkSources(orgId: number, fileId: number, version: number | null) {
    const [{ rows: answers }, { rows: passages }] = await Promise.all([
      pool.query<{ id: string; citations: Citation[]; source_change: SourceChange | null }>(
        `select a.id, a.citations, a.source_change from questionnaire_answers a
          where a.org_id = $1 and a.status in ('generated', 'edited', 'approved')
            and a.citations @> $2::jsonb`,
        [orgId, JSON.stringify([{ source: 'file', id: fileId }])],
      ),
      version === null
        ? Promise.resolve({ rows: [] as PassageDb[] })
        : pool.query<PassageDb>(
            'select text, qa_question, qa_answer from file_passages where org_id = $1 and file_id = $2',
            [orgId, fileId],
          ),
    ])
    if (!answers.length) return 0
    const now = holdings(passages)
    const flagged: { id: string; change: SourceChange }[] = []
    const at = new Date().toISOString()
    for (const answer of answers) {
      const gone = answer.citations.find(
        (citation) =>
          citation.source === 'file' && citation.id === fileId && !now.holds(citation.snippet),
      )
      if (!gone) continue
      flagged.push({
        id: answer.id,
        change: {
          file_id: fileId,
          title: gone.title,
          version,
          before: gone.snippet,
          after: version === null ? null : now.nearest(gone.snippet),
          flagged_at: at,
        },
      })
    }
    if (flagged.length)
      await inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ questionnaire_id: string }>(
          `update questionnaire_answers a set source_change = c.change
             from unnest($2::bigint[], $3::jsonb[]) as c(id, change)
            where a.org_id = $1 and a.id = c.id returning a.questionnaire_id`,
          [orgId, flagged.map((row) => row.id), flagged.map((row) => JSON.stringify(row.change))],
        )
        await touch(client, orgId, [...new Set(rows.map((row) => row.questionnaire_id))])
      })
    return flagged.length
  }

  /** A person checked the changed source and the answer stands: the flag goes. */
  async function confirmSource(orgId: number, answerId: number) {
    const rows = await inTransaction(pool, async (client) => {
      const updated = await client.query<{ question_id: string; questionnaire_id: string }>(
        `update questionnaire_answers set source_change = null
          where org_id = $1 and id = $2 returning question_id, questionnaire_id`,
        [orgId, answerId],
      )
      await touch(
        client,
        orgId,
        updated.rows.map((row) => row.questionnaire_id),
      )
      return updated.rows
    })
    return rows[0]
      ? {
          questionId: Number(rows[0].question_id),
          questionnaireId: Number(rows[0].questionnaire_id),
        }
      : null
  }

  return { checkSources, confirmSource }
}
