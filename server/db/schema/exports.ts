import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import type { ExportFormat, ExportRunStatus } from '../../../contract/questionnaires.ts'
import { userRef } from './accounts.ts'
import { identity, timestamps } from './columns.ts'
import { filledFiles, ofQuestionnaire } from './questionnaires.ts'

/**
 * An export run (issue 37): the filling of a questionnaire's file as a job, with its progress; the
 * filled file it wrote once done, or why it failed. The person who asked for it is named in the
 * activity and the audit log when the file is written.
 */
export const questionnaireExports = pgTable(
  'questionnaire_exports',
  {
    id: identity(),
    ...ofQuestionnaire(),
    requestedBy: userRef('requested_by'),
    format: text('format').$type<ExportFormat>().notNull(),
    /** Issue 39: only approved answers written (the rest of the file left as it came). */
    approvedOnly: boolean('approved_only').notNull().default(false),
    status: text('status').$type<ExportRunStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    label: text('label'),
    error: text('error'),
    filledFileId: bigint('filled_file_id', { mode: 'number' }).references(() => filledFiles.id, {
      onDelete: 'set null',
    }),
    ...timestamps,
  },
  (table) => [
    index('questionnaire_exports_questionnaire_idx').on(table.questionnaireId, table.id),
    // the reaper's look for runs a dead process left unfinished
    index('questionnaire_exports_unfinished_idx')
      .on(table.updatedAt)
      .where(sql`${table.status} in ('queued', 'running')`),
    check(
      'questionnaire_exports_status_check',
      sql`${table.status} in ('queued', 'running', 'done', 'failed')`,
    ),
    check('questionnaire_exports_progress_check', sql`${table.progress} between 0 and 100`),
  ],
)
