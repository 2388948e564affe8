import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import type { FileKind, FileStatus, PassageLocation } from '../../../contract/knowledge.ts'
import type { TrustVisibility } from '../../../contract/trust.ts'
import { authored, orgRef, userRef } from './accounts.ts'
import {
  at,
  identity,
  parentRef,
  searchIndexes,
  tagList,
  timestamps,
  tsvector,
  weightedTsv,
} from './columns.ts'
import { productRef } from './products.ts'

/** The repository's files and passages, and the library's Q&A and data items. */

/** A file's blob as a row describes it: a file and each of its earlier versions. */
const blobColumns = () => ({
  name: text('name').notNull(),
  kind: text('kind').$type<FileKind>().notNull(),
  mime: text('mime').notNull(),
  sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
  sha256: text('sha256'),
  /** Null until a document added by URL has been fetched. */
  storageKey: uuid('storage_key'),
})

/**
 * Repository files (spec section 7 'Repository'). The blob lives under DATA_DIR/files by its
 * generated storage key, never by the uploaded name (UP8). The row is inserted only once the blob
 * is complete on disk (DU1).
 */
export const repositoryFiles = pgTable(
  'repository_files',
  {
    id: identity(),
    orgId: orgRef(),
    ...blobColumns(),
    tags: tagList(),
    status: text('status').$type<FileStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    sourceUrl: text('source_url'),
    pages: integer('pages'),
    passageCount: integer('passage_count').notNull().default(0),
    createdBy: userRef('created_by'),
    /** 1, then one more each time a new version replaces the blob (issue 28); the id stays. */
    version: integer('version').notNull().default(1),
    /** When and by whom the current version was uploaded; null for version 1 (created_at, created_by). */
    versionCreatedAt: at('version_created_at'),
    versionCreatedBy: userRef('version_created_by'),
    /** On the trust centre (issue 40): not at all, for anyone, or on request under NDA. */
    trustVisibility: text('trust_visibility').$type<TrustVisibility>().notNull().default('private'),
    /**
     * For a completed questionnaire: the day it states it was answered (its Date row, else its
     * document properties); its rows' age in the library counts from here, else from the upload.
     */
    statedAt: at('stated_at'),
    /** The product the file speaks for (issue 38); null: the whole company. */
    productId: productRef(),
    processingStartedAt: at('processing_started_at'),
    processedAt: at('processed_at'),
    ...timestamps,
  },
  (table) => [
    index('repository_files_org_created_idx').on(table.orgId, table.createdAt),
    index('repository_files_org_status_idx').on(table.orgId, table.status),
    index('repository_files_tags_idx').using('gin', table.tags),
    /** Uploads find the file they are a new version of by name, ignoring case. */
    index('repository_files_org_name_idx').on(table.orgId, sql`lower(${table.name})`),
    check(
      'repository_files_status_check',
      sql`${table.status} in ('queued', 'processing', 'ready', 'failed')`,
    ),
    check(
      'repository_files_trust_visibility_check',
      sql`${table.trustVisibility} in ('private', 'public', 'nda')`,
    ),
  ],
)

/**
 * The previous versions of a repository file (issue 28): each one's metadata and blob, kept when a
 * new version replaces it. The current version is the `repository_files` row itself.
 */
export const repositoryFileVersions = pgTable(
  'repository_file_versions',
  {
    id: identity(),
    fileId: parentRef('file_id', () => repositoryFiles.id),
    orgId: orgRef(),
    version: integer('version').notNull(),
    ...blobColumns(),
    createdBy: userRef('created_by'),
    /** When this version was uploaded (not when it was replaced). */
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('repository_file_versions_file_version_idx').on(table.fileId, table.version),
    index('repository_file_versions_org_idx').on(table.orgId),
  ],
)

/**
 * Every status a file has been in, oldest first (issue 30): written by a trigger on
 * repository_files (migration 0026), so uploads, versions, reprocessing, ingestion and the reaper
 * all leave their step without each remembering to.
 */
export const fileStatusHistory = pgTable(
  'file_status_history',
  {
    id: identity(),
    orgId: orgRef(),
    fileId: parentRef('file_id', () => repositoryFiles.id),
    version: integer('version').notNull(),
    status: text('status').$type<FileStatus>().notNull(),
    error: text('error'),
    at: at('at').notNull().defaultNow(),
  },
  (table) => [index('file_status_history_file_idx').on(table.fileId, table.at)],
)

/** The searchable passages of a file, each with where it came from. */
export const filePassages = pgTable(
  'file_passages',
  {
    id: identity(),
    orgId: orgRef(),
    fileId: parentRef('file_id', () => repositoryFiles.id),
    ordinal: integer('ordinal').notNull(),
    text: text('text').notNull(),
    location: jsonb('location').$type<PassageLocation>().notNull().default({}),
    heading: text('heading'),
    qaQuestion: text('qa_question'),
    qaAnswer: text('qa_answer'),
    tsv: tsvector('tsv').generatedAlwaysAs(
      sql`to_tsvector('english', coalesce(heading, '') || ' ' || text)`,
    ),
    /** Unit-length vector from EMBEDDING_MODEL (see server/answering/embeddings.ts), or null. */
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
  },
  (table) => [
    index('file_passages_file_idx').on(table.fileId, table.ordinal),
    index('file_passages_org_idx').on(table.orgId),
    index('file_passages_tsv_idx').using('gin', table.tsv),
  ],
)

/** Library Q&A items: approved answers to reuse. */
export const kbQaItems = pgTable(
  'kb_qa_items',
  {
    id: identity(),
    orgId: orgRef(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    dropdownValue: text('dropdown_value'),
    tags: tagList(),
    source: text('source'),
    sourceFileId: bigint('source_file_id', { mode: 'number' }).references(
      () => repositoryFiles.id,
      { onDelete: 'set null' },
    ),
    /** lower-case, single-spaced question: imports update instead of duplicating. */
    questionKey: text('question_key').notNull(),
    /** Who keeps the answer true: confirms it each review cycle (issue 28). */
    ownerId: userRef('owner_id'),
    /** When a person last confirmed or rewrote the answer. */
    lastReviewedAt: at('last_reviewed_at').notNull().defaultNow(),
    reviewedBy: userRef('reviewed_by'),
    /** Days the answer stays fresh after a review; null: the organisation's cycle. */
    reviewCycleDays: integer('review_cycle_days'),
    /** The product the answer speaks for (issue 38); null: the whole company. */
    productId: productRef(),
    /** Published on the trust centre (issue 40), as a security practice. */
    trustVisibility: text('trust_visibility')
      .$type<'private' | 'public'>()
      .notNull()
      .default('private'),
    ...authored(),
    tsv: weightedTsv('question', 'answer'),
    ...timestamps,
  },
  (table) => [
    index('kb_qa_items_org_updated_idx').on(table.orgId, table.updatedAt),
    index('kb_qa_items_org_key_idx').on(table.orgId, table.questionKey),
    ...searchIndexes('kb_qa_items', table, table.question),
    check(
      'kb_qa_items_trust_visibility_check',
      sql`${table.trustVisibility} in ('private', 'public')`,
    ),
  ],
)

/** Data items: titled facts (company name, regions, retention periods). */
export const kbDataItems = pgTable(
  'kb_data_items',
  {
    id: identity(),
    orgId: orgRef(),
    title: text('title').notNull(),
    value: text('value').notNull(),
    tags: tagList(),
    source: text('source'),
    ...authored(),
    tsv: weightedTsv('title', 'value'),
    ...timestamps,
  },
  (table) => [
    index('kb_data_items_org_updated_idx').on(table.orgId, table.updatedAt),
    ...searchIndexes('kb_data_items', table, table.title),
  ],
)
