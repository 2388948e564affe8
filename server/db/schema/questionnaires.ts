import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import type { ActivityKind, NotificationKind } from '../../../contract/collaboration.ts'
import type {
  AnswerPart,
  AnswerStatus,
  CarriedFrom,
  Citation,
  ExportFormat,
  MappingState,
  OperationKind,
  QuestionnaireKind,
  QuestionnaireStatus,
  SourceChange,
  TabMapping,
} from '../../../contract/questionnaires.ts'
import type { ReviewState, WorkStatus } from '../../../contract/work.ts'
import { orgRef, userRef, users } from './accounts.ts'
import { at, identity, parentRef, stamp, timestamps } from './columns.ts'
import { productRef } from './products.ts'

/** Questionnaires: their tabs, questions, answers, history and filled files. */

/**
 * The owning organisation without a foreign key, for rows that hang from a questionnaire (which
 * carries the organisation's key) and go with it.
 */
export const ofQuestionnaire = () => ({
  orgId: bigint('org_id', { mode: 'number' }).notNull(),
  questionnaireId: parentRef('questionnaire_id', () => questionnaires.id),
})

/** An account the organisation keeps: the company that sends it questionnaires (issue 29). */
export const customers = pgTable(
  'customers',
  {
    id: identity(),
    orgId: orgRef(),
    name: text('name').notNull(),
    domain: text('domain'),
    createdBy: userRef('created_by'),
    ...timestamps,
  },
  (table) => [uniqueIndex('customers_org_name_idx').on(table.orgId, sql`lower(${table.name})`)],
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
    /** The work around it (issue 29): who owns it, for which customer, by when, how far. */
    ownerId: userRef('owner_id'),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, {
      onDelete: 'set null',
    }),
    requester: text('requester'),
    dueDate: date('due_date'),
    workStatus: text('work_status').$type<WorkStatus>().notNull().default('drafting'),
    /** The product it is answered for (issue 38); null: the company as a whole. */
    productId: productRef(),
    /** A portal's page address (kind 'portal', issue 42): the same address finds it again. */
    portalUrl: text('portal_url'),
    ...timestamps,
  },
  (table) => [
    index('questionnaires_org_created_idx').on(table.orgId, table.createdAt),
    uniqueIndex('questionnaires_portal_url_idx')
      .on(table.orgId, table.portalUrl)
      .where(sql`${table.portalUrl} is not null`),
    index('questionnaires_customer_idx').on(table.customerId),
    check(
      'questionnaires_work_status_check',
      sql`${table.workStatus} in ('drafting', 'in_review', 'approved', 'sent')`,
    ),
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
    /**
     * The question of an earlier questionnaire this one was carried forward from (issue 28): the
     * same words ('carried'), or reworded ('changed', drafted afresh, shown as a word diff).
     */
    carried: jsonb('carried').$type<CarriedFrom | null>(),
    /** Who is asked to answer it, by when, and where its review stands (issue 29). */
    assigneeId: userRef('assignee_id'),
    assignmentDueDate: date('assignment_due_date'),
    reviewState: text('review_state').$type<ReviewState>().notNull().default('unassigned'),
    deletedAt: at('deleted_at'),
  },
  (table) => [
    uniqueIndex('questionnaire_questions_position_idx').on(table.questionnaireId, table.position),
    index('questionnaire_questions_tab_idx').on(table.tabId),
    index('questionnaire_questions_assignee_idx')
      .on(table.assigneeId)
      .where(sql`${table.assigneeId} is not null and ${table.deletedAt} is null`),
    check(
      'questionnaire_questions_review_state_check',
      sql`${table.reviewState} in ('unassigned', 'assigned', 'answered', 'ready', 'changes_requested', 'approved')`,
    ),
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
    /**
     * What the question asks, part by part, and the cited sentence that states each, as the
     * engine (and a language model's check) read them when the answer was drafted; null for
     * answers that were not drafted from document sentences.
     */
    parts: jsonb('parts').$type<AnswerPart[]>(),
    /**
     * A document the answer quotes no longer says what was quoted (a new version changed or
     * dropped the sentence, or the file was deleted): the passage then and now, until a person
     * confirms, edits or regenerates the answer (issue 28).
     */
    sourceChange: jsonb('source_change').$type<SourceChange | null>(),
    /** Bumped by a trigger on every change of text, choice, comment or status (issue 29). */
    version: integer('version').notNull().default(1),
    updatedBy: userRef('updated_by'),
    updatedAt: stamp('updated_at'),
  },
  (table) => [
    uniqueIndex('questionnaire_answers_question_rank_idx').on(table.questionId, table.rank),
    index('questionnaire_answers_questionnaire_idx').on(table.questionnaireId),
    check(
      'questionnaire_answers_status_check',
      sql`${table.status} in ('pending', 'generating', 'generated', 'edited', 'approved', 'no_answer', 'failed', 'existing')`,
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

/** A comment on a question: a thread's first comment, or a reply to it (issue 29). */
export const questionComments = pgTable(
  'question_comments',
  {
    id: identity(),
    ...ofQuestionnaire(),
    questionId: parentRef('question_id', () => questionnaireQuestions.id),
    parentId: bigint('parent_id', { mode: 'number' }).references(
      (): AnyPgColumn => questionComments.id,
      { onDelete: 'cascade' },
    ),
    authorId: userRef('author_id'),
    body: text('body').notNull(),
    mentions: bigint('mentions', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    editedAt: at('edited_at'),
    deletedAt: at('deleted_at'),
    resolvedAt: at('resolved_at'),
    resolvedBy: userRef('resolved_by'),
    createdAt: stamp('created_at'),
  },
  (table) => [
    index('question_comments_question_idx').on(table.questionId, table.id),
    index('question_comments_questionnaire_idx').on(table.questionnaireId),
  ],
)

/**
 * The people a comment has told it mentions them (issue 37): each once, however often the comment
 * is edited and the mention taken away and given back.
 */
export const questionCommentNotified = pgTable(
  'question_comment_notified',
  {
    orgId: bigint('org_id', { mode: 'number' }).notNull(),
    commentId: parentRef('comment_id', () => questionComments.id),
    userId: parentRef('user_id', () => users.id),
    createdAt: stamp('created_at'),
  },
  (table) => [primaryKey({ columns: [table.commentId, table.userId] })],
)

/** What happened to a questionnaire, by whom (issue 29): its activity log. */
export const questionnaireActivity = pgTable(
  'questionnaire_activity',
  {
    id: identity(),
    ...ofQuestionnaire(),
    kind: text('kind').$type<ActivityKind>().notNull(),
    summary: text('summary').notNull(),
    questionId: bigint('question_id', { mode: 'number' }),
    createdBy: userRef('created_by'),
    createdAt: stamp('created_at'),
  },
  (table) => [index('questionnaire_activity_idx').on(table.questionnaireId, table.id)],
)

/** A notification for one person (issue 29): in the app, and by email as they prefer. */
export const notifications = pgTable(
  'notifications',
  {
    id: identity(),
    orgId: orgRef(),
    userId: parentRef('user_id', () => users.id),
    kind: text('kind').$type<NotificationKind>().notNull(),
    text: text('text').notNull(),
    actorId: userRef('actor_id'),
    questionnaireId: bigint('questionnaire_id', { mode: 'number' }).references(
      () => questionnaires.id,
      { onDelete: 'cascade' },
    ),
    questionId: bigint('question_id', { mode: 'number' }),
    /** Shown in the app (the person's preference when it was made). */
    inApp: boolean('in_app').notNull().default(true),
    /**
     * 'pending' until sent (or folded into the daily digest), 'held' while gathered into one email
     * at `send_after` (a flood of mentions, issue 37), 'sent', or null: no email.
     */
    email: text('email').$type<'pending' | 'digest' | 'held' | 'sent' | null>(),
    /** The words someone wrote (a comment), quoted in the email, never in its subject. */
    quote: text('quote'),
    /**
     * The end of the mail window of a mention or comment email (issue 37): past the first few in
     * one window, a person's emails are 'held' and go out in one digest at this moment.
     */
    sendAfter: at('send_after'),
    /** One per person, kind and subject a day for due and overdue reminders. */
    dedupeKey: text('dedupe_key'),
    readAt: at('read_at'),
    createdAt: stamp('created_at'),
  },
  (table) => [
    index('notifications_user_idx').on(table.userId, table.id),
    index('notifications_email_idx')
      .on(table.email)
      .where(sql`${table.email} in ('pending', 'digest')`),
    uniqueIndex('notifications_dedupe_idx').on(table.userId, table.dedupeKey),
    index('notifications_held_idx').on(table.sendAfter).where(sql`${table.email} = 'held'`),
    index('notifications_window_idx')
      .on(table.userId, table.sendAfter)
      .where(sql`${table.sendAfter} is not null`),
  ],
)
