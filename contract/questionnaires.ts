import * as z from 'zod/mini'
import { questionRowSchema } from './answers.ts'
import { userRefSchema } from './knowledge.ts'
import { paged } from './paging.ts'
import { productFilterSchema } from './products.ts'
import { searchTextSchema } from './text.ts'
import { WORK_STATUSES, workSchema } from './work.ts'

export * from './answers.ts'

/**
 * Questionnaires (spec section 7, under /filler/questionnaires/): the customer's file, the tabs and
 * questions Quire found in it, the answers with their candidates, the history of every change, and
 * the filled files it hands back. Ids are integers.
 */

/**
 * What a questionnaire can be read from: a file, or a web portal's page read by the extension
 * (issue 42). PDF and portal questionnaires export to the basic format only.
 */
export const QUESTIONNAIRE_KINDS = ['xlsx', 'csv', 'docx', 'pdf', 'portal'] as const
export type QuestionnaireKind = (typeof QUESTIONNAIRE_KINDS)[number]
/** The kinds read from an uploaded file. */
export type QuestionnaireFileKind = Exclude<QuestionnaireKind, 'portal'>
export const QUESTIONNAIRE_ACCEPT = '.xlsx,.xlsm,.csv,.docx,.pdf'

/**
 * queued → analyzing → ready (or failed); ready → generating → ready while an engine answers.
 */
export const QUESTIONNAIRE_STATUSES = [
  'queued',
  'analyzing',
  'ready',
  'generating',
  'failed',
] as const
export type QuestionnaireStatus = (typeof QUESTIONNAIRE_STATUSES)[number]

/** How sure analysis is of a tab's layout; 'unsure' tabs ask the user to confirm the mapping. */
export const MAPPING_STATES = ['detected', 'unsure', 'confirmed'] as const
export type MappingState = (typeof MAPPING_STATES)[number]

const column = z.nullable(z.int().check(z.minimum(0), z.maximum(16_383)))

/** Where things are in a tab: a 1-based header row and 0-based columns (null: none). */
export const tabMappingSchema = z.object({
  header_row: z.int().check(z.minimum(0), z.maximum(1_048_576)),
  id_column: column,
  question_column: z.int().check(z.minimum(0), z.maximum(16_383)),
  answer_column: column,
  comment_column: column,
  section_column: column,
})
export type TabMapping = z.infer<typeof tabMappingSchema>

export const tabSchema = z.object({
  id: z.int(),
  name: z.string(),
  position: z.int(),
  questions: z.int(),
  answered: z.int(),
  approved: z.int(),
  mapping: z.nullable(tabMappingSchema),
  mapping_state: z.enum(MAPPING_STATES),
  /** The header row's cells (or column letters), for the mapping dialog. */
  headers: z.array(z.string()),
  /** The first rows of the tab as text, for the mapping dialog. */
  preview: z.array(z.array(z.string())),
})
export type Tab = z.infer<typeof tabSchema>
export const tabListSchema = z.object({ tabs: z.array(tabSchema) })

export const questionnaireSchema = z.object({
  id: z.int(),
  name: z.string(),
  kind: z.enum(QUESTIONNAIRE_KINDS),
  size: z.int(),
  status: z.enum(QUESTIONNAIRE_STATUSES),
  /** 0-100 while analysing or generating. */
  progress: z.int(),
  /** What the running job is doing, in plain words. */
  progress_label: z.nullable(z.string()),
  error: z.nullable(z.string()),
  questions: z.int(),
  answered: z.int(),
  approved: z.int(),
  /** Tabs whose mapping Quire is unsure of and the user has not confirmed. */
  unsure_tabs: z.int(),
  /** Whether answers can be written into the original file (not for PDF). */
  can_export_original: z.boolean(),
  /** Whether there is a change that Undo can revert (issue 30: Undo is off with nothing to undo). */
  can_undo: z._default(z.boolean(), false),
  /** Bumped by every change to the answers; a filled file of an older revision is stale. */
  revision: z.int(),
  added_by: z.nullable(userRefSchema),
  created_at: z.string(),
  updated_at: z.string(),
  /** The work around it (issue 29): owner, customer, requester, due date, status. */
  ...workSchema.shape,
  /** The product it is answered for (issue 38); null: the company as a whole. */
  product_id: z.optional(z.nullable(z.int())),
  /** A portal's page address (kind 'portal', issue 42). */
  portal_url: z.optional(z.nullable(z.string())),
})
export type Questionnaire = z.infer<typeof questionnaireSchema>
export const questionnaireListSchema = paged(questionnaireSchema)

export const questionnaireListQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  page_size: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
  search: z.optional(searchTextSchema(200)),
  /** Issue 29: 'me', or a person's id. */
  owner: z.optional(z.union([z.literal('me'), z.coerce.number().check(z.int(), z.positive())])),
  customer_id: z.optional(z.coerce.number().check(z.int(), z.positive())),
  work_status: z.optional(z.enum(WORK_STATUSES)),
  overdue: z.optional(z.enum(['true', 'false'])),
  /** Newest first unless asked: by due date (soonest first, undated last), or by name. */
  order: z.optional(z.enum(['created', 'due_date', 'name'])),
  /** Issue 38: a product's id, or 'none' for those answered for all products. */
  product: z.optional(productFilterSchema),
})
export type QuestionnaireListQuery = z.input<typeof questionnaireListQuerySchema>

export const answersResponseSchema = z.object({
  questionnaire: questionnaireSchema,
  questions: z.array(questionRowSchema),
})
export type AnswersResponse = z.infer<typeof answersResponseSchema>

export const answersByTabSchema = z.object({
  tabs: z.array(z.object({ tab: tabSchema, questions: z.array(questionRowSchema) })),
})

export const OPERATION_KINDS = [
  'edit',
  'approve',
  'un_approve',
  'select',
  'delete_question',
  'generate',
  'regenerate',
  'regenerate_with_evidence',
  'apply_consistency',
  'section_consistency',
  'section_shorten',
  'section_examples',
  'section_custom',
  'reanalyze',
  'carry_forward',
  'portal_read',
  'portal_fill',
] as const
export type OperationKind = (typeof OPERATION_KINDS)[number]
/**
 * Operations that cannot be undone and that no earlier one can be undone past: a re-analysis
 * replaced the questions, a portal read changed them, a fill put answers into a portal.
 */
export const BARRIER_OPERATIONS: readonly OperationKind[] = [
  'reanalyze',
  'portal_read',
  'portal_fill',
]

export const operationSchema = z.object({
  id: z.int(),
  kind: z.enum(OPERATION_KINDS),
  /** A plain sentence: 'Approved the answer to A&A-01.1'. */
  summary: z.string(),
  /** How many questions it changed. */
  questions: z.int(),
  by: z.nullable(userRefSchema),
  created_at: z.string(),
  undone: z.boolean(),
  /** Only the latest operation that has not been undone can be undone. */
  can_undo: z.boolean(),
})
export type Operation = z.infer<typeof operationSchema>
export const operationListSchema = z.object({ operations: z.array(operationSchema) })

/** What every answer operation returns: the rows it changed and the questionnaire's counts. */
export const answerChangeSchema = z.object({
  questionnaire: questionnaireSchema,
  questions: z.array(questionRowSchema),
  operation: z.nullable(operationSchema),
  /** What the change found worth saying: 'No new evidence since the last draft' (issue 39). */
  notice: z.optional(z.string()),
})
export type AnswerChange = z.infer<typeof answerChangeSchema>

export const batchDeleteQuestionnairesSchema = z.object({
  file_ids: z.array(z.int().check(z.positive())).check(z.minLength(1), z.maxLength(500)),
})

export const reanalyzeRequestSchema = z.object({
  /** Mappings the user confirmed or corrected, per tab id or tab name. */
  mappings: z.optional(
    z.array(
      z.object({
        tab: z.string().check(z.minLength(1), z.maxLength(200)),
        mapping: tabMappingSchema,
      }),
    ),
  ),
})
export type ReanalyzeRequest = z.input<typeof reanalyzeRequestSchema>

export const regenerateWithEvidenceSchema = z
  .object({
    /** Text the user adds as evidence; it is quoted, never followed as an instruction. */
    evidence: z.optional(z.string().check(z.trim(), z.maxLength(20_000))),
    /** Repository files to draw the answer from. */
    file_ids: z.optional(z.array(z.int().check(z.positive())).check(z.maxLength(20))),
  })
  .check(
    z.refine((body) => Boolean(body.evidence?.length || body.file_ids?.length), {
      message: 'Add evidence text or choose at least one file',
    }),
  )
export type RegenerateWithEvidence = z.input<typeof regenerateWithEvidenceSchema>

export const sectionRequestSchema = z.object({
  tab_id: z.optional(z.int().check(z.positive())),
  question_ids: z.optional(z.array(z.int().check(z.positive())).check(z.maxLength(5000))),
  /** For the custom operation: what to do, in plain words. */
  instruction: z.optional(z.string().check(z.trim(), z.maxLength(2000))),
  /** Only say what would change (issue 30): nothing is written, and nothing can be undone. */
  preview: z.optional(z.boolean()),
})
export type SectionRequest = z.input<typeof sectionRequestSchema>
export const SECTION_OPERATIONS = ['consistency', 'shorten', 'examples', 'custom'] as const
export type SectionOperation = (typeof SECTION_OPERATIONS)[number]

/** What a section operation would change, answer by answer, before it is confirmed (issue 30). */
export const sectionPreviewSchema = z.object({
  changes: z.array(
    z.object({
      question_id: z.int(),
      ref: z.nullable(z.string()),
      question: z.string(),
      before: z.object({ text: z.string(), choice: z.nullable(z.string()) }),
      after: z.object({ text: z.string(), choice: z.nullable(z.string()) }),
    }),
  ),
  /** Approved answers that contradict the one the others now take (consistency). */
  contradictions: z.array(
    z.object({ question_id: z.int(), ref: z.nullable(z.string()), other_id: z.int() }),
  ),
})
export type SectionPreview = z.infer<typeof sectionPreviewSchema>

/** A change that also reports Yes/No contradictions between questions asking the same thing. */
export const consistencyResultSchema = z.object({
  questionnaire: questionnaireSchema,
  questions: z.array(questionRowSchema),
  operation: z.nullable(operationSchema),
  contradictions: z.array(
    z.object({
      question_id: z.int(),
      ref: z.nullable(z.string()),
      other_id: z.optional(z.int()),
    }),
  ),
})

export const EXPORT_FORMATS = ['original', 'xlsx', 'csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export const exportRequestSchema = z.object({
  questionnaire_id: z.int().check(z.positive()),
})
/**
 * POST export-original/: `approved_only` writes approved answers only (issue 39); left out, the
 * organisation's default (`export_approved_only`) decides.
 */
export const exportOriginalRequestSchema = z.object({
  questionnaire_id: z.int().check(z.positive()),
  approved_only: z.optional(z.boolean()),
})
export const exportBasicRequestSchema = z.object({
  questionnaire_id: z.int().check(z.positive()),
  format: z._default(z.enum(['xlsx', 'csv']), 'xlsx'),
})

export const filledFileSchema = z.object({
  id: z.int(),
  questionnaire_id: z.int(),
  name: z.string(),
  format: z.enum(EXPORT_FORMATS),
  size: z.int(),
  /** The questionnaire's revision it was written from. */
  revision: z.int(),
  /** Whether no answer has changed since. */
  current: z.boolean(),
  answers_written: z.int(),
  created_at: z.string(),
})
export type FilledFile = z.infer<typeof filledFileSchema>

/**
 * An export runs as a job (issue 37): the request answers at once with the run, which is asked for
 * again until it is done (its filled file set) or failed (its error says why).
 */
export const EXPORT_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const
export type ExportRunStatus = (typeof EXPORT_RUN_STATUSES)[number]
export const exportRunSchema = z.object({
  id: z.int(),
  status: z.enum(EXPORT_RUN_STATUSES),
  /** 0-100. */
  progress: z.int(),
  /** What it is doing now, while queued or running. */
  label: z.nullable(z.string()),
  questionnaire_id: z.int(),
  format: z.enum(EXPORT_FORMATS),
  /** Whether only approved answers are written (issue 39). */
  approved_only: z._default(z.boolean(), false),
  filled_file: z.nullable(filledFileSchema),
  error: z.nullable(z.string()),
})
export type ExportRun = z.infer<typeof exportRunSchema>
export const exportResponseSchema = z.object({ export: exportRunSchema })
export const checkFilledFileSchema = z.object({
  exists: z.boolean(),
  current: z.boolean(),
  filled_file: z.nullable(filledFileSchema),
  /** Issue 39: whether the organisation fills files with approved answers only by default. */
  approved_only_default: z._default(z.boolean(), false),
})
export type CheckFilledFile = z.infer<typeof checkFilledFileSchema>
export const filledFileQuerySchema = z.object({
  questionnaire_id: z.coerce.number().check(z.int(), z.positive()),
})

export const QUESTIONNAIRE_TEXTS = {
  pageTitle: 'Questionnaire Automation',
  notFound: 'Questionnaire not found',
  questionNotFound: 'Question not found',
  approvedLocked:
    'This answer is approved: only an approver or an admin can change it. Ask one to un-approve it first.',
  deleteOthers:
    'You can delete only questionnaires you uploaded, and their questions. Ask an approver or an admin.',
  answerNotFound: 'Answer not found',
  noFile: 'Choose a questionnaire file to upload',
  oneFile: 'Upload one questionnaire at a time',
  unsupported:
    '{name} is not a supported questionnaire. Upload an Excel (.xlsx), CSV, Word (.docx) or PDF file.',
  /** Spec section 2's license dialog text. */
  answersLimit: 'Your license limits the number of answers to {max_answers}.',
  questionnairesLimit: 'Your license limits the number of questionnaires to {max_questionnaire}.',
  noQuestions:
    'No questions were found in this file. Check the mapping of its tabs or upload the questionnaire as Excel, CSV or Word.',
  stillAnalyzing: 'This questionnaire is still being analysed',
  choiceNotAllowed: '{choice} is not one of the values this answer cell allows',
  nothingToUndo: 'There is nothing to undo',
  emptyAnswer: 'Write an answer before approving it',
  noExportOriginal:
    'A PDF questionnaire cannot be filled in place. Export it in the basic format instead.',
  noFilledFile: 'No filled file has been exported for this questionnaire yet',
  exportNotFound: 'Export not found',
  exportFailed: 'The file could not be written. Export again.',
  exportCutOff: 'The export was interrupted. Export again.',
  candidateNotFound: 'That candidate does not belong to this question',
  analysisFailed: 'The questionnaire could not be read',
  cutOff: 'Analysis was interrupted. Re-analyze the questionnaire to try again.',
  tabNotFound: 'This questionnaire has no tab named {tab}',
  mappingColumnMissing: 'The question column must be set',
  carryFromItself: 'Choose an earlier questionnaire to start from, not this one',
  carrySourceNotFound: 'The earlier questionnaire was not found',
  carryWhileBusy:
    'This questionnaire is being read or answered. Start from the earlier one when it is ready.',
  /** The browser's own words, where the server's answer names no reason. */
  carryFailed: 'The earlier answers could not be carried forward',
  listFailed: 'The questionnaires could not be loaded',
  deleteFailed: 'The questionnaires could not be deleted',
  /** An export that stopped without the server's reason. */
  exportFailedPlain: 'The export failed',
  /** An answer's save, approval or regeneration refused without the server's reason. */
  changeFailed: 'The change could not be saved',
  activityFailed: 'The activity could not be loaded',
  sectionPreviewFailed: 'The preview could not be made.',
} as const

export const saveToLibraryResponseSchema = z.object({ item_id: z.int(), created: z.boolean() })

export const libraryHealthSchema = z.object({
  groups: z.array(
    z.object({
      kind: z.enum(['duplicate', 'conflict']),
      items: z.array(
        z.object({
          /** The Q&A item, or for a row of a completed questionnaire its passage. */
          id: z.int(),
          /** A Q&A item (editable, deletable), or a row of a file in the repository. */
          source: z._default(z.enum(['qa', 'file']), 'qa'),
          question: z.string(),
          answer: z.string(),
          dropdown_value: z.nullable(z.string()),
          /** When a Q&A item was last changed; null for a file's row. */
          updated_at: z.nullable(z.string()),
          file_id: z._default(z.nullable(z.int()), null),
          file_name: z._default(z.nullable(z.string()), null),
          /**
           * Issue 30: when the answer was given (a Q&A item's last review or rewrite, a completed
           * questionnaire's own date, else its upload); in a conflict, the newest is first and
           * `newest` (none when two share the newest date).
           */
          dated_at: z._default(z.nullable(z.string()), null),
          newest: z._default(z.boolean(), false),
        }),
      ),
    }),
  ),
  /**
   * Issue 28, the library as a workload: Q&A items stale and due for review, answers of
   * questionnaires whose cited passage changed (generated, edited or approved), and the conflict
   * groups above. Defaulted so that an older server's answer still reads.
   */
  counts: z._default(
    z.object({
      stale: z.int(),
      due: z.int(),
      source_changed: z.int(),
      conflicts: z.int(),
    }),
    { stale: 0, due: 0, source_changed: 0, conflicts: 0 },
  ),
})
export type LibraryHealth = z.infer<typeof libraryHealthSchema>
export type LibraryCounts = LibraryHealth['counts']
