import * as z from 'zod/mini'
import { FRESHNESS_STATES } from './freshness.ts'
import { passageLocationSchema, userRefSchema } from './knowledge.ts'
import { assignmentSchema } from './work.ts'

/**
 * The answers of a questionnaire (spec section 7): each question's chosen answer with its
 * candidates, citations, parts and flags, the filters of the answer list and an edit. Re-exported
 * by questionnaires.ts, where the questionnaire, its operations and its export are.
 */
/** An answer's life. 'no_answer': the engine found no sufficient evidence and said so. */
export const ANSWER_STATUSES = [
  'pending',
  'generating',
  'generated',
  'edited',
  'approved',
  'no_answer',
  'failed',
  'existing',
] as const
export type AnswerStatus = (typeof ANSWER_STATUSES)[number]

/**
 * Statuses whose text or choice is an answer: drafted, written or approved, or (issue 39)
 * `existing`, an answer the customer's file arrived with, kept as the starting point and never
 * overwritten by generation unless asked.
 */
export const FILLED_STATUSES: readonly AnswerStatus[] = [
  'generated',
  'edited',
  'approved',
  'existing',
]
/** An answer with text or a value in a filled status. */
export const holdsAnswer = (answer: {
  status: AnswerStatus
  text: string
  choice: string | null
}) =>
  FILLED_STATUSES.includes(answer.status) && (answer.text.trim() !== '' || answer.choice !== null)

export const ANSWER_STATUS_LABELS: Record<AnswerStatus, string> = {
  pending: 'Pending',
  generating: 'Generating',
  generated: 'Generated',
  edited: 'Edited',
  approved: 'Approved',
  no_answer: 'No answer',
  failed: 'Failed',
  existing: 'In the file',
}

/** Confidence bands shown in the UI; a confidence of c falls in the first band whose floor ≤ c. */
export const CONFIDENCE_BANDS = [
  { band: 'high', floor: 0.8 },
  { band: 'medium', floor: 0.5 },
  { band: 'low', floor: 0 },
] as const
export type ConfidenceBand = (typeof CONFIDENCE_BANDS)[number]['band']
export const confidenceBand = (confidence: number | null): ConfidenceBand | null =>
  confidence === null
    ? null
    : (CONFIDENCE_BANDS.find((entry) => confidence >= entry.floor)?.band ?? 'low')

/** Up to this many candidate answers per question. */
export const MAX_CANDIDATES = 3
export const MAX_ANSWER_LENGTH = 20_000
export const MAX_COMMENT_LENGTH = 5_000

export const CITATION_SOURCES = ['qa', 'data', 'file', 'evidence'] as const
/** What a source is: an answer of the organisation's library, or a passage of a document. */
export const CITATION_KINDS = ['library', 'document'] as const
export const citationSchema = z.object({
  source: z.enum(CITATION_SOURCES),
  kind: z.optional(z.enum(CITATION_KINDS)),
  /** The Q&A item, data item or file; null for evidence the user pasted. */
  id: z.nullable(z.int()),
  title: z.string(),
  /** Plain text quoted from the source. */
  snippet: z.string(),
  location: z.optional(passageLocationSchema),
  /**
   * A completed questionnaire's row (source 'file', kind 'library'): its passage, by which the
   * knowledge base opens the row (the id is the file's).
   */
  entry: z.optional(z.int()),
})
export type Citation = z.infer<typeof citationSchema>

/**
 * What a machine's answer was drawn from: the library answering this question, the library
 * answering the same practice in other words (another framework), or a document's sentence.
 */
export const ANSWER_SOURCES = ['library', 'transferred', 'document', 'evidence'] as const
export type AnswerSource = (typeof ANSWER_SOURCES)[number]
/** Who wrote an answer (issue 39): the machine, or a person (no machine band then). */
export const ANSWER_ORIGINS = ['machine', 'person'] as const
export type AnswerOrigin = (typeof ANSWER_ORIGINS)[number]
/**
 * Who wrote a person's answer, for the panel: 'Written by Ann Lee', or 'Edited by Ann Lee' where
 * it changed a draft (its sources are still cited).
 */
export const writtenBy = (answer: {
  status?: AnswerStatus
  citations: unknown[]
  updated_by?: { name: string } | null
}) =>
  answer.status === 'existing'
    ? EXISTING_ANSWER_TEXT
    : `${answer.citations.length ? 'Edited' : 'Written'} by ${answer.updated_by?.name || 'a person'}`

/** Issue 39: an answer the customer's file arrived with, kept as the starting point. */
export const EXISTING_ANSWER_TEXT =
  'In the file as it arrived: kept as it was, not drafted again unless you ask.'

/**
 * What the customer's cells take for a question (issue 39): a value from its dropdown (or a mark
 * in one of its columns), and a text in the column beside it.
 */
export const cellNeedsSchema = z.object({ choice: z.boolean(), text: z.boolean() })
export type CellNeeds = z.infer<typeof cellNeedsSchema>
export const ANSWER_PARTS_MISSING = ['choice', 'text'] as const
export type AnswerPartMissing = (typeof ANSWER_PARTS_MISSING)[number]
export const MISSING_LABELS: Record<AnswerPartMissing, string> = {
  choice: 'a value for the dropdown',
  text: 'an explanation for the text column',
}

/** What an answer lacks that its cells take: nothing when the file asks for one cell only. */
export function missingParts(
  needs: CellNeeds | null | undefined,
  answer: { text: string; choice: string | null },
): AnswerPartMissing[] {
  if (!needs || !(answer.text.trim() || answer.choice)) return []
  return [
    ...(needs.choice && !answer.choice ? (['choice'] as const) : []),
    ...(needs.text && !answer.text.trim() ? (['text'] as const) : []),
  ]
}

/** 'This answer has no value for the dropdown: approve it as it is?' */
export const incompleteText = (missing: AnswerPartMissing[]) =>
  `This answer has no ${missing.map((part) => MISSING_LABELS[part].replace(/^an? /, '')).join(' and no ')}, which the customer’s file asks for. Add it, or approve it as it is.`

export const ANSWER_SOURCE_LABELS: Record<AnswerSource, string> = {
  library: 'From your library: an answer to this question',
  transferred: 'From your library: an answer about the same practice, asked in other words',
  document: 'From a document: the quoted passage',
  evidence: 'From the evidence you added',
}

/** What a regeneration that found nothing new says (issue 39: it used to say nothing). */
export const REGENERATE_UNCHANGED = 'No new evidence since the last draft'

/** What a cited source is, for the sources list: a library answer, a document, or pasted text. */
export const citationKindLabel = (citation: { kind?: string; source: string }) =>
  citation.source === 'evidence'
    ? 'Evidence you added'
    : citation.kind === 'library'
      ? 'Library answer'
      : 'Document'

/**
 * One part of what a question asks (the practice, that it is documented, how often, tested,
 * automated, ...) and the cited sentence that states it; null: no cited sentence states it.
 */
export const ANSWER_PART_KINDS = [
  'practice',
  'qualifier',
  'frequency',
  'documented',
  'tested',
] as const
export const answerPartSchema = z.object({
  label: z.string(),
  kind: z.enum(ANSWER_PART_KINDS),
  sentence: z.nullable(z.string()),
})
export type AnswerPart = z.infer<typeof answerPartSchema>

/**
 * What has changed around an answer (issue 28): a document it quotes no longer says it, the
 * library's own answers disagree, it was carried from an earlier questionnaire, or the question
 * is worded differently from the one answered then.
 */
export const ANSWER_FLAGS = [
  'source_changed',
  'conflict',
  'carried_forward',
  'question_changed',
  /** Issue 38: it rests on another product's entries or documents (never High). */
  'other_product',
  /** Issue 38: it rests on what another party does or requires (a provider, a law). */
  'third_party',
] as const
export type AnswerFlag = (typeof ANSWER_FLAGS)[number]
/** How the note of an answer carried forward from an earlier questionnaire begins. */
export const CARRIED_PREFIX = 'Carried forward from'
export const ANSWER_FLAG_LABELS: Record<AnswerFlag, string> = {
  source_changed: 'Source changed',
  conflict: 'Library disagrees',
  carried_forward: 'Carried forward',
  question_changed: 'Question changed',
  other_product: 'Another product',
  third_party: 'Another party',
}

/** A quoted passage a document no longer holds as quoted (issue 28). */
export const sourceChangeSchema = z.object({
  file_id: z.nullable(z.int()),
  title: z.string(),
  /** The file's version that no longer says it; null: the file was deleted. */
  version: z.nullable(z.int()),
  /** The passage as the answer quoted it. */
  before: z.string(),
  /** The closest passage of the new version; null: nothing like it is left. */
  after: z.nullable(z.string()),
  flagged_at: z.string(),
})
export type SourceChange = z.infer<typeof sourceChangeSchema>

/** Where a question was carried from: the same words, or reworded since (issue 28). */
export const carriedFromSchema = z.object({
  questionnaire_id: z.int(),
  questionnaire_name: z.string(),
  question_id: z.int(),
  kind: z.enum(['carried', 'changed']),
  /** The question as the earlier questionnaire asked it (for a word diff). */
  previous_text: z.string(),
})
export type CarriedFrom = z.infer<typeof carriedFromSchema>

export const answerSchema = z.object({
  id: z.int(),
  question_id: z.int(),
  /** 0 for the first candidate. */
  rank: z.int(),
  text: z.string(),
  /** The dropdown value, when the answer cell has a vocabulary. */
  choice: z.nullable(z.string()),
  comment: z.string(),
  status: z.enum(ANSWER_STATUSES),
  /** 0-1; null until an engine or a person has answered. */
  confidence: z.nullable(z.number()),
  band: z.nullable(z.enum(['high', 'medium', 'low'])),
  citations: z.array(citationSchema),
  /**
   * Why there is no answer, why generation failed, or what a generated answer rests on when the
   * reviewer should check it (a Yes from a document rather than from an answer to this question).
   */
  note: z.nullable(z.string()),
  /**
   * Who wrote it (issue 39): 'machine' for a draft (approved or not), 'person' for an answer a
   * person wrote or changed (its band is null: the machine's confidence stays in the history);
   * null while nothing is written.
   */
  origin: z.nullable(z.enum(ANSWER_ORIGINS)),
  /** What a machine's answer was drawn from; absent for answers a person wrote. */
  drawn_from: z.optional(z.enum(ANSWER_SOURCES)),
  /**
   * For an answer from documents: each part the question asks and the cited sentence that states
   * it (absent for library answers, which answer the whole question).
   */
  parts: z.optional(z.array(answerPartSchema)),
  /**
   * What the answer's confidence band means, measured: 'High: right 96 % of the time on
   * questionnaires like this one.' Absent without a confidence.
   */
  assurance: z.optional(z.string()),
  /**
   * For an answer drawn from a library entry (a Q&A item, a completed questionnaire's row): that
   * entry's freshness, else null (issue 28).
   */
  freshness: z._default(z.nullable(z.enum(FRESHNESS_STATES)), null),
  /** The library entry an answer was drawn from: when it was last reviewed, and who owns it. */
  library_entry: z.optional(
    z.object({
      source: z.enum(['qa', 'file']),
      id: z.int(),
      reviewed_at: z.string(),
      age_days: z.int(),
      owner: z.nullable(userRefSchema),
    }),
  ),
  /** What the reviewer should know has changed around the answer. */
  flags: z._default(z.array(z.enum(ANSWER_FLAGS)), []),
  /** For a `source_changed` answer: the cited passage as it was quoted and as it reads now. */
  source_change: z.optional(sourceChangeSchema),
  /** Bumped by every change; an edit names the version it was made against (issue 29). */
  version: z.int(),
  updated_by: z.optional(z.nullable(userRefSchema)),
  updated_at: z.string(),
})
export type Answer = z.infer<typeof answerSchema>

/** One question with its chosen answer and the other candidates. */
export const questionRowSchema = z.object({
  id: z.int(),
  tab_id: z.int(),
  tab: z.string(),
  position: z.int(),
  /** The question's own ID in the file (A&A-01.1), or null. */
  ref: z.nullable(z.string()),
  text: z.string(),
  section: z.nullable(z.string()),
  /** Where the answer is written: a cell (C12), a table cell, or null when only basic export holds it. */
  answer_cell: z.nullable(z.string()),
  /** What the customer's cells take: a dropdown value, a text beside it (issue 39). */
  cell_needs: z.optional(cellNeedsSchema),
  vocabulary: z.nullable(z.array(z.string())),
  answer: answerSchema,
  candidates: z.array(answerSchema),
  /** The earlier questionnaire's question it was carried from (issue 28); absent: none. */
  carried_from: z.optional(carriedFromSchema),
  /** Who it is assigned to, by when, and its review state (issue 29). */
  assignment: assignmentSchema,
})
export type QuestionRow = z.infer<typeof questionRowSchema>

/* ---------------------------------------------------------------- answered before (issue 28) */

/** GET questionnaires/{id}/previous/: earlier questionnaires this one matches, best first. */
export const previousMatchSchema = z.object({
  questionnaire_id: z.int(),
  name: z.string(),
  created_at: z.string(),
  /** Share of this questionnaire's questions asked in the same words there (0-1). */
  score: z.number(),
  /** Most questions are the same: the same template, answered before. */
  same_template: z.boolean(),
  identical: z.int(),
  changed: z.int(),
  new: z.int(),
  removed: z.int(),
  /** Of the identical questions, how many have an approved answer there to carry forward. */
  approved: z.int(),
})
export type PreviousMatch = z.infer<typeof previousMatchSchema>
export const previousListSchema = z.object({ results: z.array(previousMatchSchema) })

/**
 * POST questionnaires/{id}/generate/, body optional (issue 39): `include_existing` drafts the
 * answers the file arrived with as well; without it they are kept as they are.
 */
export const generateRequestSchema = z.object({
  include_existing: z._default(z.boolean(), false),
})

/** POST questionnaires/{id}/carry-forward/ {from_questionnaire_id}. */
export const carryForwardSchema = z.object({
  from_questionnaire_id: z.int().check(z.positive('Choose the earlier questionnaire')),
})
export const carryForwardResponseSchema = z.object({
  /** Approved answers carried to questions asked in the same words. */
  carried: z.int(),
  /** Questions reworded since: drafted afresh, marked with the earlier wording. */
  changed: z.int(),
  /** Questions the earlier questionnaire did not ask. */
  new: z.int(),
  /** Questions of the earlier questionnaire this one no longer asks. */
  removed: z.int(),
  /** The removed questions' words, for the reviewer. */
  removed_questions: z.array(z.object({ ref: z.nullable(z.string()), text: z.string() })),
  /** True when drafting started for the questions not carried. */
  generating: z.boolean(),
})
export type CarryForwardResponse = z.infer<typeof carryForwardResponseSchema>

export const ANSWER_FILTERS = [
  'all',
  'unanswered',
  'low_confidence',
  'needs_review',
  'approved',
  /** Issue 38: answers resting on another product's or another party's word, to check. */
  'not_ours',
] as const
export type AnswerFilter = (typeof ANSWER_FILTERS)[number]
export const ANSWER_FILTER_LABELS: Record<AnswerFilter, string> = {
  all: 'All',
  unanswered: 'Unanswered',
  low_confidence: 'Low confidence',
  needs_review: 'Needs review',
  approved: 'Approved',
  not_ours: 'Another product or party',
}

export const answersQuerySchema = z.object({
  tab: z.optional(z.coerce.number().check(z.int(), z.minimum(1))),
  filter: z._default(z.enum(ANSWER_FILTERS), 'all'),
  /** Only these questions, comma-separated (what a live change names: issue 29). */
  ids: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d+(,\d+){0,499}$/, 'ids are up to 500 numbers, comma-separated')),
      z.transform((value) => value.split(',').map(Number)),
    ),
  ),
})
export type AnswersQuery = z.input<typeof answersQuerySchema>

const answerText = z.string().check(z.maxLength(MAX_ANSWER_LENGTH))
/** POST .../answers/{id}/approve/: an answer missing what its cells take needs confirming. */
export const approveSchema = z.object({
  confirm_incomplete: z._default(z.boolean(), false),
})
export type ApproveBody = z.input<typeof approveSchema>

export const answerEditSchema = z.object({
  text: z.optional(answerText),
  choice: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  comment: z.optional(z.string().check(z.maxLength(MAX_COMMENT_LENGTH))),
  /** The answer's version the edit was made against: a stale one is refused with 409. */
  version: z.optional(z.int().check(z.nonnegative())),
})
export type AnswerEdit = z.input<typeof answerEditSchema>
