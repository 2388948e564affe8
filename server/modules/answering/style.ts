import { detectLanguage } from '../../answering/language.ts'
import type { AnswerStyle } from '../../answering/llm.ts'
import { tierCatalog } from '../account/license.ts'
import type { Queryable } from './shared.ts'

/**
 * The style the language model writes an organisation's answers in: its answer-style defaults
 * (Settings → Organisation) and the language, the question's own when the license has
 * `multi_language` (and is in force), English otherwise.
 */
export async function answerStyleOf(
  pool: Queryable,
  orgId: number,
): Promise<(questionText: string) => AnswerStyle> {
  const { rows } = await pool.query<{
    answer_tone: AnswerStyle['tone']
    answer_length: AnswerStyle['length']
    multi_language: boolean | null
    in_force: boolean | null
  }>(
    `select o.answer_tone, o.answer_length, l.multi_language,
            (l.is_active and (l.expiration_date is null or l.expiration_date > now())) as in_force
       from organizations o left join licenses l on l.org_id = o.id
      where o.id = $1`,
    [orgId],
  )
  const row = rows[0]
  const multiLanguage = row?.in_force
    ? Boolean(row.multi_language)
    : tierCatalog().defaultTier.limits.multi_language
  const base = { tone: row?.answer_tone ?? 'neutral', length: row?.answer_length ?? 'standard' }
  return (questionText) => ({
    ...base,
    language: multiLanguage
      ? (detectLanguage(questionText)?.name ?? 'the language of the question')
      : 'English',
  })
}
