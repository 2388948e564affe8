import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import type { Role, UserStatus } from '../../contract/auth.ts'
import type { FileKind, FileStatus, PassageLocation } from '../../contract/knowledge.ts'
import type {
  AnswerStatus,
  Citation,
  ExportFormat,
  MappingState,
  OperationKind,
  QuestionnaireKind,
  QuestionnaireStatus,
  TabMapping,
} from '../../contract/questionnaires.ts'
import type { TicketPriority, TicketType } from '../../contract/support.ts'

/**
 * The drizzle schema. Every tenant-owned table carries `org_id`; services take it from the
 * authenticated context, never from the request. Migrations are generated from this file with
 * `npm run db:generate`, committed, and applied at start.
 */

/** The generated identity key every table has. */
const identity = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()
/** The row this one belongs to: it goes with it. */
const parentRef = (name: string, target: () => AnyPgColumn) =>
  bigint(name, { mode: 'number' }).notNull().references(target, { onDelete: 'cascade' })
/** The owning organisation: its rows go with it. */
const orgRef = () => parentRef('org_id', () => organizations.id)
/** A user who did something: kept as null when the user is removed. */
const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' })
/** Who created a row and who changed it last. */
const authored = () => ({ createdBy: userRef('created_by'), updatedBy: userRef('updated_by') })
/** Full-text vector of a title-like column (weight A) and a body-like column (weight B). */
const weightedTsv = (title: string, body: string) =>
  tsvector('tsv').generatedAlwaysAs(
    sql.raw(
      `setweight(to_tsvector('english', ${title}), 'A') || setweight(to_tsvector('english', ${body}), 'B')`,
    ),
  )
/** Free tags, never null. */
const tagList = () => text('tags').array().notNull().default(sql`'{}'::text[]`)
/** A moment, with its time zone. */
const at = (name: string) => timestamp(name, { withTimezone: true })
/** When a row was written (or last changed), set by PostgreSQL. */
const stamp = (name: 'created_at' | 'updated_at') => at(name).notNull().defaultNow()
/**
 * The owning organisation without a foreign key, for rows that hang from a questionnaire (which
 * carries the organisation's key) and go with it.
 */
const ofQuestionnaire = () => ({
  orgId: bigint('org_id', { mode: 'number' }).notNull(),
  questionnaireId: parentRef('questionnaire_id', () => questionnaires.id),
})
/** The indexes of a searchable library table: full text, fuzzy title, tags. */
const searchIndexes = (
  name: string,
  table: { tsv: AnyPgColumn; tags: AnyPgColumn },
  title: AnyPgColumn,
) => [
  index(`${name}_tsv_idx`).using('gin', table.tsv),
  index(`${name}_${title.name}_trgm_idx`).using('gin', sql`${title} gin_trgm_ops`),
  index(`${name}_tags_idx`).using('gin', table.tags),
]

const timestamps = { createdAt: stamp('created_at'), updatedAt: stamp('updated_at') }

export const organizations = pgTable('organizations', {
  id: identity(),
  name: text('name').notNull(),
  ...timestamps,
})

export type UserRole = Role

export const users = pgTable(
  'users',
  {
    id: identity(),
    orgId: orgRef(),
    /** Stored trimmed and lower-cased; the unique index on lower(email) guards older rows too. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** argon2id PHC string; null until an invited user sets a first password. */
    passwordHash: text('password_hash'),
    role: text('role').$type<UserRole>().notNull().default('member'),
    /** `invited`: an invite link and no password yet; `removed` keeps the row for the audit trail. */
    status: text('status').$type<UserStatus>().notNull().default('active'),
    emailConfirmedAt: at('email_confirmed_at'),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Set with an administrator's temporary password: it dies at first use or at this time (AS7). */
    tempPasswordExpiresAt: at('temp_password_expires_at'),
    marketingConsent: boolean('marketing_consent').notNull().default(false),
    ...timestamps,
    lastLoginAt: at('last_login_at'),
  },
  (table) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`),
    index('users_org_idx').on(table.orgId),
    check('users_role_check', sql`${table.role} in ('admin', 'member')`),
    check(
      'users_status_check',
      sql`${table.status} in ('active', 'invited', 'disabled', 'removed')`,
    ),
  ],
)

/**
 * A sign-in session: one refresh-token family. Access tokens carry its id (`sid`), so revoking the
 * row ends the session's access tokens at once (AS6). `expires_at` is absolute: creation + 14 days,
 * never extended by refreshes (AS5).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: parentRef('user_id', () => users.id),
    orgId: orgRef(),
    /** The session whose access token asked for this one (token/get); it never outlives it. */
    parentId: uuid('parent_id'),
    createdAt: stamp('created_at'),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    /** logout, reuse, password_reset, password_change, disabled, ... */
    revokedReason: text('revoked_reason'),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
)

/** Opaque refresh tokens, stored only as SHA-256 hashes (LT3) and rotated on every use. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: identity(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    userId: parentRef('user_id', () => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: stamp('created_at'),
    /** The family's absolute end, copied so a lone row tells its own lifetime. */
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    replacedBy: bigint('replaced_by', { mode: 'number' }),
    revokedAt: at('revoked_at'),
  },
  (table) => [
    uniqueIndex('refresh_tokens_hash_idx').on(table.tokenHash),
    index('refresh_tokens_family_idx').on(table.familyId),
  ],
)

export const LINK_PURPOSES = ['confirm_email', 'password_reset', 'invite', 'magic_link'] as const
export type LinkPurpose = (typeof LINK_PURPOSES)[number]

/** One-time links mailed to users, stored only as SHA-256 hashes (LT3). */
export const linkTokens = pgTable(
  'link_tokens',
  {
    id: identity(),
    userId: parentRef('user_id', () => users.id),
    orgId: orgRef(),
    purpose: text('purpose').$type<LinkPurpose>().notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    revokedAt: at('revoked_at'),
    /** Wrong tokens tried for this user and purpose while this link was live (LT5). */
    attempts: integer('attempts').notNull().default(0),
    createdAt: stamp('created_at'),
  },
  (table) => [
    uniqueIndex('link_tokens_hash_idx').on(table.tokenHash),
    index('link_tokens_user_purpose_idx').on(table.userId, table.purpose),
    check(
      'link_tokens_purpose_check',
      sql`${table.purpose} in ('confirm_email', 'password_reset', 'invite', 'magic_link')`,
    ),
  ],
)

/** The organisation's license: a tier name and its limits (spec section 3), read only from here. */
export const licenses = pgTable('licenses', {
  orgId: bigint('org_id', { mode: 'number' })
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  tierName: text('tier_name').notNull(),
  maxUsers: integer('max_users').notNull(),
  maxRepository: integer('max_repository').notNull(),
  maxQuestionnaire: integer('max_questionnaire').notNull(),
  maxAnswers: integer('max_answers').notNull(),
  isEvaluation: boolean('is_evaluation').notNull().default(false),
  multiLanguage: boolean('multi_language').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  expirationDate: at('expiration_date'),
  createdAt: stamp('created_at'),
})

/**
 * Rate-limit counters in PostgreSQL so that limits hold across API nodes: one row per key and
 * time bucket; a window is the sum of its buckets.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: at('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.windowStart] }),
    index('rate_limits_window_idx').on(table.windowStart),
  ],
)

/**
 * Append-only audit trail (TI7): admin actions and authorization denials with tenant, actor and
 * target, never secrets.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    orgId: bigint('org_id', { mode: 'number' }).references(() => organizations.id, {
      onDelete: 'cascade',
    }),
    actorId: bigint('actor_id', { mode: 'number' }),
    action: text('action').notNull(),
    target: text('target'),
    requestId: text('request_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: stamp('created_at'),
  },
  (table) => [index('audit_events_org_created_idx').on(table.orgId, table.createdAt)],
)

/** Raw bytes; node-postgres reads and writes bytea as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

/** Support tickets (spec sections 3 and 7), owned by the sender's organisation. */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: identity(),
    orgId: orgRef(),
    userId: parentRef('user_id', () => users.id),
    type: text('type').$type<TicketType>().notNull(),
    summary: text('summary').notNull(),
    description: text('description').notNull(),
    steps: text('steps').notNull().default(''),
    priority: text('priority').$type<TicketPriority>().notNull().default('Medium'),
    browserInfo: text('browser_info').notNull().default(''),
    url: text('url').notNull().default(''),
    customFields: jsonb('custom_fields')
      .$type<{ id: string; value: string }[]>()
      .notNull()
      .default([]),
    createdAt: stamp('created_at'),
  },
  (table) => [
    index('support_tickets_org_created_idx').on(table.orgId, table.createdAt),
    check(
      'support_tickets_type_check',
      sql`${table.type} in ('Bug', 'Feature Request', 'Feedback', 'Question', 'Idea / Random')`,
    ),
    check('support_tickets_priority_check', sql`${table.priority} in ('Low', 'Medium', 'High')`),
  ],
)

/**
 * A ticket's attached files, kept in the database. The content type comes from the bytes' magic,
 * never from the client; SVG is stored as a download only and must never be served inline.
 */
export const supportTicketAttachments = pgTable(
  'support_ticket_attachments',
  {
    id: identity(),
    ticketId: parentRef('ticket_id', () => supportTickets.id),
    orgId: orgRef(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    data: bytea('data').notNull(),
    createdAt: stamp('created_at'),
  },
  (table) => [
    index('support_ticket_attachments_ticket_idx').on(table.ticketId),
    index('support_ticket_attachments_org_idx').on(table.orgId),
  ],
)

/** Full-text vectors, kept by PostgreSQL itself as generated columns. */
const tsvector = customType<{ data: string; driverData: string }>({ dataType: () => 'tsvector' })

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
    name: text('name').notNull(),
    kind: text('kind').$type<FileKind>().notNull(),
    mime: text('mime').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    sha256: text('sha256'),
    /** Null until a document added by URL has been fetched. */
    storageKey: uuid('storage_key'),
    tags: tagList(),
    status: text('status').$type<FileStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    sourceUrl: text('source_url'),
    pages: integer('pages'),
    passageCount: integer('passage_count').notNull().default(0),
    createdBy: userRef('created_by'),
    processingStartedAt: at('processing_started_at'),
    processedAt: at('processed_at'),
    ...timestamps,
  },
  (table) => [
    index('repository_files_org_created_idx').on(table.orgId, table.createdAt),
    index('repository_files_org_status_idx').on(table.orgId, table.status),
    index('repository_files_tags_idx').using('gin', table.tags),
    check(
      'repository_files_status_check',
      sql`${table.status} in ('queued', 'processing', 'ready', 'failed')`,
    ),
  ],
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
    ...authored(),
    tsv: weightedTsv('question', 'answer'),
    ...timestamps,
  },
  (table) => [
    index('kb_qa_items_org_updated_idx').on(table.orgId, table.updatedAt),
    index('kb_qa_items_org_key_idx').on(table.orgId, table.questionKey),
    ...searchIndexes('kb_qa_items', table, table.question),
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

/** A questionnaire: the customer's file and the state of its analysis or generation job. */
export const questionnaires = pgTable(
  'questionnaires',
  {
    id: identity(),
    orgId: orgRef(),
    name: text('name').notNull(),
    kind: text('kind').$type<QuestionnaireKind>().notNull(),
    mime: text('mime').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    sha256: text('sha256'),
    storageKey: uuid('storage_key').notNull(),
    status: text('status').$type<QuestionnaireStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    progressLabel: text('progress_label'),
    error: text('error'),
    /** Mappings the user confirmed, by tab name; analysis uses them instead of detection. */
    mappings: jsonb('mappings').$type<Record<string, TabMapping>>().notNull().default({}),
    /** Bumped by every change to the answers. */
    revision: integer('revision').notNull().default(0),
    createdBy: userRef('created_by'),
    processingStartedAt: at('processing_started_at'),
    analyzedAt: at('analyzed_at'),
    ...timestamps,
  },
  (table) => [
    index('questionnaires_org_created_idx').on(table.orgId, table.createdAt),
    check(
      'questionnaires_status_check',
      sql`${table.status} in ('queued', 'analyzing', 'ready', 'generating', 'failed')`,
    ),
  ],
)

/** A tab of a questionnaire (a visible sheet, or the one table of a CSV, DOCX or PDF). */
export const questionnaireTabs = pgTable(
  'questionnaire_tabs',
  {
    id: identity(),
    ...ofQuestionnaire(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    mapping: jsonb('mapping').$type<TabMapping | null>(),
    mappingState: text('mapping_state').$type<MappingState>().notNull().default('detected'),
    headers: jsonb('headers').$type<string[]>().notNull().default([]),
    preview: jsonb('preview').$type<string[][]>().notNull().default([]),
  },
  (table) => [
    uniqueIndex('questionnaire_tabs_position_idx').on(table.questionnaireId, table.position),
  ],
)

/** A question found by analysis, with where its answer goes in the original file. */
export const questionnaireQuestions = pgTable(
  'questionnaire_questions',
  {
    id: identity(),
    ...ofQuestionnaire(),
    tabId: parentRef('tab_id', () => questionnaireTabs.id),
    position: integer('position').notNull(),
    ref: text('ref'),
    text: text('text').notNull(),
    section: text('section'),
    /** Where answers, dropdown values and comments are written (see server/workbooks). */
    target: jsonb('target').$type<Record<string, unknown> | null>(),
    vocabulary: text('vocabulary').array(),
    /** Matches a question across re-analyses so its answers are kept. */
    matchKey: text('match_key').notNull(),
    selectedRank: integer('selected_rank').notNull().default(0),
    deletedAt: at('deleted_at'),
  },
  (table) => [
    uniqueIndex('questionnaire_questions_position_idx').on(table.questionnaireId, table.position),
    index('questionnaire_questions_tab_idx').on(table.tabId),
  ],
)

/** Answers: rank 0 is the first candidate; (question, rank) is unique so jobs never duplicate (DU2). */
export const questionnaireAnswers = pgTable(
  'questionnaire_answers',
  {
    id: identity(),
    ...ofQuestionnaire(),
    questionId: parentRef('question_id', () => questionnaireQuestions.id),
    rank: integer('rank').notNull().default(0),
    text: text('text').notNull().default(''),
    choice: text('choice'),
    comment: text('comment').notNull().default(''),
    status: text('status').$type<AnswerStatus>().notNull().default('pending'),
    confidence: doublePrecision('confidence'),
    citations: jsonb('citations').$type<Citation[]>().notNull().default([]),
    note: text('note'),
    updatedBy: userRef('updated_by'),
    updatedAt: stamp('updated_at'),
  },
  (table) => [
    uniqueIndex('questionnaire_answers_question_rank_idx').on(table.questionId, table.rank),
    index('questionnaire_answers_questionnaire_idx').on(table.questionnaireId),
    check(
      'questionnaire_answers_status_check',
      sql`${table.status} in ('pending', 'generating', 'generated', 'edited', 'approved', 'no_answer', 'failed')`,
    ),
  ],
)

/** The history: every change with its before and after, so the latest one can be undone. */
export const questionnaireOperations = pgTable(
  'questionnaire_operations',
  {
    id: identity(),
    ...ofQuestionnaire(),
    kind: text('kind').$type<OperationKind>().notNull(),
    summary: text('summary').notNull(),
    questionCount: integer('question_count').notNull().default(0),
    /** Of `questionCount`, how many a generation answered; kept across a resumed run. */
    answeredCount: integer('answered_count').notNull().default(0),
    changes: jsonb('changes').$type<unknown[]>().notNull().default([]),
    createdBy: userRef('created_by'),
    createdAt: stamp('created_at'),
    undoneAt: at('undone_at'),
  },
  (table) => [index('questionnaire_operations_idx').on(table.questionnaireId, table.id)],
)

/** Filled files handed back, kept as versions. */
export const filledFiles = pgTable(
  'filled_files',
  {
    id: identity(),
    ...ofQuestionnaire(),
    name: text('name').notNull(),
    format: text('format').$type<ExportFormat>().notNull(),
    mime: text('mime').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    storageKey: uuid('storage_key').notNull(),
    revision: integer('revision').notNull(),
    answersWritten: integer('answers_written').notNull().default(0),
    createdBy: userRef('created_by'),
    createdAt: stamp('created_at'),
  },
  (table) => [index('filled_files_questionnaire_idx').on(table.questionnaireId, table.id)],
)

/** Language-model tokens an organisation spent per UTC day (LL5). */
export const llmUsage = pgTable(
  'llm_usage',
  {
    orgId: orgRef(),
    day: date('day').notNull(),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.day] })],
)
