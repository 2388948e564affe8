import type { ImportMapping } from '../../../contract/knowledge.ts'
import { KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { writeAudit } from '../../db/audit.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import { qaRowsOf } from '../../ingest/index.ts'
import { cleanTags } from '../repository/service.ts'
import { type KnowledgeDeps, questionKey } from './shared.ts'

/**
 * Importing Q&A items from a spreadsheet: every row checked first, then all stored in one transaction or none.
 */
export function createQaImport(deps: KnowledgeDeps) {
  const { pool } = deps.database

  /* ------------------------------------------------------------ Q&A items */

  async function importQa(
    orgId: number,
    userId: number,
    sheets: { name: string; rows: string[][] }[],
    mapping: Required<ImportMapping>,
    filename: string,
    /** The date the file says it was answered (its Date row, else its document properties). */
    statedAt: Date | null = null,
  ) {
    const sheet = sheets.find((s) => s.name === mapping.sheet)
    if (!sheet)
      throw apiError(400, KNOWLEDGE_TEXTS.importSheetMissing.replace('{sheet}', mapping.sheet), {
        code: 'validation_error',
      })
    const col = (key: string | null) =>
      key ? [...key].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 : -1
    const t = col(mapping.tags_column)
    const d = col(mapping.dropdown)
    // section header rows and lines merged across are no questions (issue 39: 'Additional
    // Information' had become an answer, later cited as evidence)
    const read = qaRowsOf(sheet.rows, {
      headerRow: mapping.header_row,
      question: col(mapping.question),
      answer: col(mapping.answer),
      dropdown: d >= 0 ? d : null,
    })
    const items = new Map<
      string,
      { question: string; answer: string; dropdown: string | null; tags: string[] }
    >()
    const skipped = read.skipped.length
    for (const { row, question, answer, dropdown } of read.items) {
      const rowTags = t >= 0 ? (sheet.rows[row - 1]?.[t] ?? '').split(/[,;]/) : []
      items.set(questionKey(question), {
        question: question.slice(0, 4000),
        answer: answer.slice(0, 20_000),
        dropdown: dropdown ? dropdown.slice(0, 100) : null,
        tags: cleanTags([...mapping.tags, ...rowTags]).slice(0, 20),
      })
    }
    if (!items.size) throw apiError(400, KNOWLEDGE_TEXTS.importNoRows, { code: 'validation_error' })
    let created = 0
    let updated = 0
    await inTransaction(pool, async (client) => {
      for (const [key, item] of items) {
        const existing = await client.query<{ id: string }>(
          'select id from kb_qa_items where org_id = $1 and question_key = $2 order by id limit 1 for update',
          [orgId, key],
        )
        if (existing.rows[0]) {
          await client.query(
            `update kb_qa_items set question = $3, answer = $4, dropdown_value = $5, tags = $6, source = $7, updated_by = $8, updated_at = now(),
                    last_reviewed_at = coalesce($9, now()), owner_id = coalesce(owner_id, $8)
              where org_id = $1 and id = $2`,
            [
              orgId,
              existing.rows[0].id,
              item.question,
              item.answer,
              item.dropdown,
              item.tags,
              filename,
              userId,
              statedAt,
            ],
          )
          updated += 1
        } else {
          await client.query(
            `insert into kb_qa_items (org_id, question, answer, dropdown_value, tags, source, question_key, created_by, updated_by,
                                      owner_id, last_reviewed_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $8, coalesce($9, now()))`,
            [
              orgId,
              item.question,
              item.answer,
              item.dropdown,
              item.tags,
              filename,
              key,
              userId,
              statedAt,
            ],
          )
          created += 1
        }
      }
      await writeAudit(
        client,
        { orgId, actorId: userId },
        {
          action: 'qa.imported',
          name: filename,
          detail: {
            created,
            updated,
            skipped,
            dated: statedAt?.toISOString().slice(0, 10) ?? null,
          },
        },
      )
    })
    return { created, updated, skipped }
  }

  /* ------------------------------------------------------------ search */

  return { importQa }
}

export type QaImport = ReturnType<typeof createQaImport>
