import * as z from 'zod/mini'
import { FRESHNESS_STATES, FRESHNESS_TEXTS, reviewCycleDaysSchema } from './freshness.ts'
import { paged } from './paging.ts'
import { productFilterSchema } from './products.ts'
import { searchTextSchema, typedTextChecks } from './text.ts'

// The wording (error texts, fillText) and the upload limit it states live in knowledge-texts.ts;
// exported from here too, so that every import of contract/knowledge.ts keeps working.
export * from './knowledge-texts.ts'

/**
 * The document repository and the knowledge base (spec sections 1 and 7 'Repository'): files that
 * Quire reads and indexes, Q&A items and data items, and search over all of them. Ids are integers.
 */

/** What Quire can read. Detected from the file's bytes, never from its name alone (UP1). */
export const FILE_KINDS = ['pdf', 'docx', 'xlsx', 'csv', 'txt', 'md', 'html'] as const
export type FileKind = (typeof FILE_KINDS)[number]

/** Extensions accepted by the upload picker, one per kind (plus aliases). */
export const FILE_EXTENSIONS: Record<FileKind, readonly string[]> = {
  pdf: ['.pdf'],
  docx: ['.docx'],
  xlsx: ['.xlsx', '.xlsm'],
  csv: ['.csv'],
  txt: ['.txt', '.log'],
  md: ['.md', '.markdown'],
  html: ['.html', '.htm'],
}
export const FILE_ACCEPT = Object.values(FILE_EXTENSIONS).flat().join(',')

export const FILE_KIND_LABELS: Record<FileKind, string> = {
  pdf: 'PDF',
  docx: 'Word',
  xlsx: 'Excel',
  csv: 'CSV',
  txt: 'Text',
  md: 'Markdown',
  html: 'Web page',
}

/** A file's life: queued for ingestion, being read, searchable, or failed with a readable error. */
export const FILE_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const
export type FileStatus = (typeof FILE_STATUSES)[number]

/** Default cap per uploaded file; the server's MAX_UPLOAD_MB setting overrides it. */
export const DEFAULT_MAX_UPLOAD_MB = 50
export const MAX_TAGS = 20
export const MAX_TAG_LENGTH = 40
/** Ids per batch delete. */
export const MAX_BATCH_IDS = 500

/** Where a passage came from inside its source. */
export const passageLocationSchema = z.object({
  page: z.optional(z.int()),
  sheet: z.optional(z.string()),
  row: z.optional(z.int()),
  cell: z.optional(z.string()),
  heading: z.optional(z.string()),
})
export type PassageLocation = z.infer<typeof passageLocationSchema>

const tagSchema = z
  .string()
  .check(
    ...typedTextChecks(),
    z.trim(),
    z.minLength(1, 'A tag cannot be empty'),
    z.maxLength(MAX_TAG_LENGTH),
  )
export const tagsSchema = z.array(tagSchema).check(z.maxLength(MAX_TAGS))

export const userRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
})
export type UserRef = z.infer<typeof userRefSchema>

export const repositoryFileSchema = z.object({
  id: z.int(),
  name: z.string(),
  kind: z.enum(FILE_KINDS),
  mime: z.string(),
  size: z.int(),
  tags: z.array(z.string()),
  status: z.enum(FILE_STATUSES),
  /** 0-100 while queued or processing; 100 when ready. */
  progress: z.int(),
  /** Why it failed, in plain words; null unless failed. */
  error: z.nullable(z.string()),
  /** The address it was fetched from, for documents added by URL. */
  source_url: z.nullable(z.string()),
  /** Pages (PDF), sheets' rows (XLSX, CSV) or null. */
  pages: z.nullable(z.int()),
  passages: z.int(),
  added_by: z.nullable(userRefSchema),
  created_at: z.string(),
  updated_at: z.string(),
  processed_at: z.nullable(z.string()),
  /** 1, then one more for each new version (same-name upload or replace); the id stays (issue 28). */
  version: z.int(),
  /** The product it speaks for (issue 38); null: the whole company. */
  product_id: z.optional(z.nullable(z.int())),
})
export type RepositoryFile = z.infer<typeof repositoryFileSchema>
export const repositoryFileListSchema = paged(repositoryFileSchema)

/** GET files/ (and knowledge-base/files/, which lists ready files only). */
export const fileListQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  page_size: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(500)), 50),
  /** Text in the name (or, for URLs, the address). */
  q: z.optional(searchTextSchema(200)),
  tag: z.optional(searchTextSchema(MAX_TAG_LENGTH)),
  kind: z.optional(z.enum(FILE_KINDS)),
  status: z.optional(z.enum(FILE_STATUSES)),
  /** The product files speak for (issue 38): a product's id, or 'none' for all products. */
  product: z.optional(productFilterSchema),
  ordering: z._default(
    z.enum(['-created_at', 'created_at', 'name', '-name', 'size', '-size']),
    '-created_at',
  ),
})
export type FileListQuery = z.input<typeof fileListQuerySchema>

/**
 * POST files/upload/: multipart, one or more files in the field `files`, optional `tags` (a JSON
 * array or comma-separated text). All or nothing: one refused file refuses the request, naming it.
 * Issue 28: a file whose name (ignoring case) is already in the repository (links aside) becomes
 * that file's next version: same id, `version` one more, `new_version: true`. The same bytes as
 * the current version change nothing: `unchanged: true`. A new file is `new_version: false,
 * unchanged: false`. The license's file limit counts files, not versions.
 */
export const uploadedFileSchema = z.extend(repositoryFileSchema, {
  new_version: z.boolean(),
  unchanged: z.boolean(),
})
export type UploadedFile = z.infer<typeof uploadedFileSchema>
export const uploadResponseSchema = z.object({ files: z.array(uploadedFileSchema) })

/**
 * GET files/{id}/versions/: every version of a file, newest first; the current one is the file
 * itself (its download is files/{id}/download/ too). POST files/{id}/replace/ takes one file in
 * the field `file` (or `files`) and answers an uploaded file; the file keeps its name unless the
 * new version is of another kind (a DOCX replacing a PDF), when it takes the uploaded name.
 */
export const fileVersionSchema = z.object({
  version: z.int(),
  name: z.string(),
  kind: z.enum(FILE_KINDS),
  mime: z.string(),
  size_bytes: z.int(),
  sha256: z.nullable(z.string()),
  created_at: z.string(),
  created_by: z.nullable(userRefSchema),
  current: z.boolean(),
})
export type FileVersion = z.infer<typeof fileVersionSchema>
export const fileVersionListSchema = z.object({
  file_id: z.int(),
  count: z.int(),
  results: z.array(fileVersionSchema),
})
export const fileVersionParamsSchema = z.object({
  id: z.coerce.number().check(z.int(), z.positive()),
  version: z.coerce.number().check(z.int(), z.positive(), z.maximum(2_147_483_647)),
})

/** POST urls/upload/. The fetch runs in the ingestion job; the answer is the queued file. */
export const urlUploadRequestSchema = z.object({
  url: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter a URL'),
      z.maxLength(2048, 'The URL is too long'),
      z.regex(/^https?:\/\/\S+$/i, 'Enter a URL that starts with http:// or https://'),
    ),
  tags: z._default(tagsSchema, []),
})
export type UrlUploadRequest = z.input<typeof urlUploadRequestSchema>

export const batchDeleteRequestSchema = z.object({
  file_ids: z
    .array(z.int().check(z.positive()))
    .check(z.minLength(1, 'Select at least one file'), z.maxLength(MAX_BATCH_IDS)),
})
export const batchDeleteResponseSchema = z.object({ deleted: z.int() })
export const deleteResponseSchema = z.object({ deleted: z.int() })

export const updateTagsRequestSchema = z.object({ tags: tagsSchema })

/** GET admin/file_stats/: usage of the repository against the license's max_repository. */
export const fileStatsSchema = z.object({
  total: z.object({ count: z.int(), bytes: z.number() }),
  by_kind: z.array(z.object({ kind: z.enum(FILE_KINDS), count: z.int(), bytes: z.number() })),
  by_status: z.array(z.object({ status: z.enum(FILE_STATUSES), count: z.int() })),
  /** The license's cap on files; null when unlimited. */
  max_repository: z.nullable(z.int()),
  remaining: z.nullable(z.int()),
})
export type FileStats = z.infer<typeof fileStatsSchema>

/* ---------------------------------------------------------------- knowledge base items */

/** Dropdown values that questionnaires use most; any other short value is allowed too. */
export const COMMON_DROPDOWN_VALUES = ['Yes', 'No', 'N/A'] as const

/** A review date: YYYY-MM-DD (that day, UTC) or an ISO date and time; never in the future. */
const reviewDateSchema = z
  .pipe(
    z.string().check(
      z.trim(),
      z.refine(
        (text) =>
          /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) &&
          !Number.isNaN(Date.parse(text)),
        FRESHNESS_TEXTS.badReviewDate,
      ),
    ),
    z.transform((text) => new Date(text)),
  )
  .check(z.refine((date) => date.getTime() <= Date.now() + 60_000, FRESHNESS_TEXTS.futureReview))

export const qaItemSchema = z.object({
  id: z.int(),
  question: z.string(),
  answer: z.string(),
  /** A short fixed value such as Yes, No or N/A, for questions answered from a list. */
  dropdown_value: z.nullable(z.string()),
  tags: z.array(z.string()),
  /** Where it came from, in words (an import's file name, 'Manual', a questionnaire). */
  source: z.nullable(z.string()),
  source_file_id: z.nullable(z.int()),
  /** Who keeps the answer true (issue 28); null: nobody yet. */
  owner_id: z.nullable(z.int()),
  owner: z.nullable(userRefSchema),
  /** When a person last confirmed or rewrote the answer. */
  last_reviewed_at: z.string(),
  reviewed_by: z.nullable(userRefSchema),
  /** Days the answer stays fresh after a review: its own, else the organisation's. */
  review_cycle_days: z.int(),
  /** True when the cycle is the organisation's (the item sets none of its own). */
  review_cycle_inherited: z.boolean(),
  /** When the answer falls stale unless someone reviews it. */
  review_due_at: z.string(),
  freshness: z.enum(FRESHNESS_STATES),
  created_by: z.nullable(userRefSchema),
  created_at: z.string(),
  updated_at: z.string(),
  /** The product it speaks for (issue 38); null: the whole company. */
  product_id: z.optional(z.nullable(z.int())),
})
export type QaItem = z.infer<typeof qaItemSchema>
export const qaItemListSchema = paged(qaItemSchema)

export const qaItemCreateSchema = z.object({
  question: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter a question'),
      z.maxLength(4_000, 'The question is too long'),
    ),
  answer: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter an answer'),
      z.maxLength(20_000, 'The answer is too long'),
    ),
  dropdown_value: z._default(z.nullable(z.string().check(z.trim(), z.maxLength(100))), null),
  tags: z._default(tagsSchema, []),
  source: z._default(z.nullable(z.string().check(z.trim(), z.maxLength(500))), null),
  /** A person of the organisation who may manage the library; null: nobody. */
  owner_id: z.optional(z.nullable(z.int().check(z.positive('Choose an owner')))),
  /** YYYY-MM-DD or an ISO date and time, not in the future; default: now. */
  last_reviewed_at: z.optional(reviewDateSchema),
  /** null: the organisation's cycle. */
  review_cycle_days: z.optional(z.nullable(reviewCycleDaysSchema)),
  /** The product it speaks for (issue 38); null or absent: the whole company. */
  product_id: z.optional(z.nullable(z.int().check(z.positive('Choose a product')))),
})
export type QaItemCreate = z.input<typeof qaItemCreateSchema>
export const qaItemUpdateSchema = z.partial(qaItemCreateSchema)
export type QaItemUpdate = z.input<typeof qaItemUpdateSchema>

export const dataItemSchema = z.object({
  id: z.int(),
  /** What the fact is: 'Company legal name', 'Data-centre regions', 'Log retention'. */
  title: z.string(),
  /** The fact itself. */
  value: z.string(),
  tags: z.array(z.string()),
  source: z.nullable(z.string()),
  created_by: z.nullable(userRefSchema),
  created_at: z.string(),
  updated_at: z.string(),
})
export type DataItem = z.infer<typeof dataItemSchema>
export const dataItemListSchema = paged(dataItemSchema)

export const dataItemCreateSchema = z.object({
  title: z
    .string()
    .check(z.trim(), z.minLength(1, 'Enter a title'), z.maxLength(300, 'The title is too long')),
  value: z
    .string()
    .check(z.trim(), z.minLength(1, 'Enter a value'), z.maxLength(20_000, 'The value is too long')),
  tags: z._default(tagsSchema, []),
  source: z._default(z.nullable(z.string().check(z.trim(), z.maxLength(500))), null),
})
export type DataItemCreate = z.input<typeof dataItemCreateSchema>
export const dataItemUpdateSchema = z.partial(dataItemCreateSchema)
export type DataItemUpdate = z.input<typeof dataItemUpdateSchema>

/**
 * A row of a completed questionnaire in the repository, as the library reads it: the engine
 * answers from these rows as it does from Q&A items. Read-only; the file is its source.
 */
export const answeredRowSchema = z.object({
  /** The passage the row was read into. */
  id: z.int(),
  question: z.string(),
  /** The answer cell (Yes, No, a value or text). */
  answer: z.string(),
  /** The narrative beside it, when the row has one. */
  detail: z.string(),
  file_id: z.int(),
  file_name: z.string(),
  location: z.nullable(passageLocationSchema),
})
export type AnsweredRow = z.infer<typeof answeredRowSchema>
export const answeredRowListSchema = paged(answeredRowSchema)

/** GET knowledge-base/qa/ and data/: paged, searchable by text and tag. */
export const itemListQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  page_size: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(500)), 50),
  q: z.optional(searchTextSchema(500)),
  tag: z.optional(searchTextSchema(MAX_TAG_LENGTH)),
  /** Q&A items only: fresh, due or stale. */
  freshness: z.optional(z.enum(FRESHNESS_STATES)),
  /** Q&A items only: a person's id, 'me', or 'none' for items nobody owns. */
  owner: z.optional(
    z.union([z.enum(['me', 'none']), z.coerce.number().check(z.int(), z.positive())]),
  ),
  /** Q&A items only: 'review' orders by when each falls due, soonest first. */
  order: z.optional(z.enum(['updated', 'review'])),
  /** Q&A items only (issue 38): a product's id, or 'none' for those of all products. */
  product: z.optional(productFilterSchema),
  /** One item (or row of a completed questionnaire) by its id: a link opens it. */
  id: z.optional(z.coerce.number().check(z.int(), z.positive())),
})
export type ItemListQuery = z.input<typeof itemListQuerySchema>

/* ---------------------------------------------------------------- Q&A import */

/**
 * POST knowledge-base/qa/import/preview/: multipart with one CSV or XLSX in `file`. The answer shows
 * each sheet's first rows and the columns Quire suggests; the user confirms or corrects them.
 */
export const importSheetPreviewSchema = z.object({
  name: z.string(),
  /** 1-based row of the column headers, as detected. */
  header_row: z.int(),
  /** Column letters (A, B, ...) and the header text found in the header row. */
  columns: z.array(z.object({ key: z.string(), header: z.string() })),
  /** The rows after the header (at most 20), cell texts keyed by column letter. */
  sample: z.array(z.object({ row: z.int(), cells: z.record(z.string(), z.string()) })),
  /** Data rows after the header row. */
  row_count: z.int(),
  /** Rows the suggested mapping leaves out, and why (a section's header row, a merged line). */
  skipped: z.array(z.object({ row: z.int(), reason: z.string(), text: z.string() })),
  suggested: z.object({
    question: z.nullable(z.string()),
    answer: z.nullable(z.string()),
    dropdown: z.nullable(z.string()),
    tags: z.nullable(z.string()),
  }),
})
export type ImportSheetPreview = z.infer<typeof importSheetPreviewSchema>
export const importPreviewSchema = z.object({
  filename: z.string(),
  kind: z.enum(['csv', 'xlsx']),
  /** The date the file says it was answered (YYYY-MM-DD): imported items are dated by it. */
  stated_at: z.nullable(z.string()),
  sheets: z.array(importSheetPreviewSchema),
})
export type ImportPreview = z.infer<typeof importPreviewSchema>

const columnKey = z.string().check(z.regex(/^[A-Z]{1,3}$/, 'A column is a letter such as A or B'))

/**
 * POST knowledge-base/qa/import/: multipart with the same `file` and a `mapping` field holding this
 * JSON. Rows without a question or an answer are skipped; an existing item with the same question
 * (ignoring case and spacing) is updated rather than duplicated.
 */
export const importMappingSchema = z.object({
  sheet: z.string().check(z.minLength(1)),
  header_row: z.int().check(z.minimum(1)),
  question: columnKey,
  answer: columnKey,
  dropdown: z._default(z.nullable(columnKey), null),
  tags_column: z._default(z.nullable(columnKey), null),
  /** Tags given to every imported item. */
  tags: z._default(tagsSchema, []),
})
export type ImportMapping = z.input<typeof importMappingSchema>
export const importResultSchema = z.object({
  created: z.int(),
  updated: z.int(),
  skipped: z.int(),
})
export type ImportResult = z.infer<typeof importResultSchema>

/* ---------------------------------------------------------------- search */

export const SEARCH_SOURCES = ['all', 'files', 'qa', 'data'] as const

export const searchQuerySchema = z.object({
  q: z
    .string()
    .check(
      ...typedTextChecks(),
      z.trim(),
      z.minLength(1, 'Enter something to search for'),
      z.maxLength(500),
    ),
  source: z._default(z.enum(SEARCH_SOURCES), 'all'),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(50)), 10),
})
export type SearchQuery = z.input<typeof searchQuerySchema>

/** Marks around the matched words of a snippet; the rest of the snippet is HTML-escaped text. */
export const SNIPPET_MARK_OPEN = '<mark>'
export const SNIPPET_MARK_CLOSE = '</mark>'

export const searchResultSchema = z.object({
  /** Unique across kinds: `passage:12`, `qa:3`, `data:7`. */
  id: z.string(),
  kind: z.enum(['passage', 'qa', 'data']),
  /** The passage (or the item's question and answer, or title and value) in full. */
  text: z.string(),
  /** An excerpt around the matches: escaped text with <mark>...</mark> around matched words. */
  snippet: z.string(),
  /** Relevance, higher is better, 0 to 1. */
  score: z.number(),
  /** The repository file of a passage; null for items. */
  file_id: z.nullable(z.int()),
  /** The Q&A or data item; null for passages. */
  item_id: z.nullable(z.int()),
  source: z.object({
    /** The file name, the item's question or the data item's title. */
    name: z.string(),
    kind: z.nullable(z.enum(FILE_KINDS)),
    location: z.nullable(passageLocationSchema),
  }),
})
export type SearchResult = z.infer<typeof searchResultSchema>
export const searchResponseSchema = z.object({ results: z.array(searchResultSchema) })
