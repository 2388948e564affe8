import * as z from 'zod/mini'
import { ANSWER_STATUSES } from './answers.ts'
import {
  FILE_STATUSES,
  fileVersionSchema,
  passageLocationSchema,
  repositoryFileSchema,
} from './knowledge.ts'
import { paged, pageQuerySchema } from './paging.ts'

/**
 * A file's own page (issue 30): the file, every status it has been in, its versions and what cites
 * it (GET files/{id}/details/), and what Quire read from it, paged (GET files/{id}/passages/).
 * Another organisation's file is not found (404).
 */

/** One step of a file's life: the status it took, for which version, when (and why it failed). */
export const fileStatusStepSchema = z.object({
  status: z.enum(FILE_STATUSES),
  version: z.int(),
  error: z.nullable(z.string()),
  at: z.string(),
})
export type FileStatusStep = z.infer<typeof fileStatusStepSchema>

/** An answer of a questionnaire that cites the file: it opens at its question. */
export const citingAnswerSchema = z.object({
  questionnaire_id: z.int(),
  questionnaire_name: z.string(),
  question_id: z.int(),
  question: z.string(),
  answer: z.string(),
  status: z.enum(ANSWER_STATUSES),
})
export type CitingAnswer = z.infer<typeof citingAnswerSchema>

/** A Q&A item of the library taken from the file (imported from it, or saved from it). */
export const citingItemSchema = z.object({
  id: z.int(),
  question: z.string(),
  answer: z.string(),
})
export type CitingItem = z.infer<typeof citingItemSchema>

/** At most this many citing answers are listed; `answers_count` says how many there are. */
export const MAX_CITING_LISTED = 100

export const fileDetailsSchema = z.object({
  file: repositoryFileSchema,
  /** Oldest first. */
  history: z.array(fileStatusStepSchema),
  /** Newest first; the current one is the file itself. */
  versions: z.array(fileVersionSchema),
  answers: z.array(citingAnswerSchema),
  answers_count: z.int(),
  items: z.array(citingItemSchema),
})
export type FileDetails = z.infer<typeof fileDetailsSchema>

/**
 * What was read from the file, in order: a passage with where it was (page, sheet and row,
 * heading) and, for a completed questionnaire's row, its question and answer.
 */
export const filePassageSchema = z.object({
  id: z.int(),
  ordinal: z.int(),
  text: z.string(),
  location: z.nullable(passageLocationSchema),
  question: z.nullable(z.string()),
  answer: z.nullable(z.string()),
})
export type FilePassage = z.infer<typeof filePassageSchema>
export const filePassageListSchema = z.extend(paged(filePassageSchema), {
  /** The list's page returned: with `at_page`, the one holding the document's page. */
  page: z.optional(z.int()),
})
/**
 * `at_page`: open the list where the document's page starts (a source cited at page 7 opens
 * there, issue 30); it chooses the list's page and overrides `page`.
 */
export const filePassageQuerySchema = z.extend(pageQuerySchema, {
  at_page: z.optional(z.coerce.number().check(z.int(), z.minimum(1))),
})
export type FilePassageQuery = z.infer<typeof filePassageQuerySchema>
