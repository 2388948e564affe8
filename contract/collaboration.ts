import * as z from 'zod/mini'
import { userRefSchema } from './knowledge.ts'
import { ANSWER_FILTERS } from './questionnaires.ts'
import { REVIEW_STATES, WORK_STATUSES } from './work.ts'

export * from './work.ts'

/**
 * Working together on a questionnaire (issue 29): the questionnaire as a piece of work (owner,
 * customer, requester, due date, status), assignments and the review state of each question,
 * comments with mentions, notifications, the live stream of a questionnaire and its activity.
 */

const MAX_NAME = 200
const idSchema = z.int().check(z.positive())
const isoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is written YYYY-MM-DD'))

/* ---------------------------------------------------------------------------- the work */

/** An account the organisation keeps: the company that sends it questionnaires. */
export const customerSchema = z.object({
  id: z.int(),
  name: z.string(),
  domain: z.nullable(z.string()),
  /** Its questionnaires, newest first (each year's submission). */
  questionnaires: z.int(),
  created_at: z.string(),
})
export type Customer = z.infer<typeof customerSchema>
export const customerListSchema = z.object({ results: z.array(customerSchema) })

const domainSchema = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(253),
    z.regex(
      /^$|^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      'A domain is written like example.com',
    ),
  )
export const customerCreateSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'A customer needs a name'),
      z.maxLength(MAX_NAME, 'A name is at most 200 characters'),
    ),
  domain: z.optional(z.nullable(domainSchema)),
})
export type CustomerCreate = z.input<typeof customerCreateSchema>

/** A questionnaire's customer page: the customer and its questionnaires, newest first. */
export const customerPageSchema = z.object({
  customer: customerSchema,
  questionnaires: z.array(
    z.object({
      id: z.int(),
      name: z.string(),
      work_status: z.enum(WORK_STATUSES),
      due_date: z.nullable(z.string()),
      created_at: z.string(),
      /** The year it was received, for the page's grouping by year. */
      year: z.int(),
      questions: z.int(),
      approved: z.int(),
    }),
  ),
})
export type CustomerPage = z.infer<typeof customerPageSchema>

/** POST questionnaires/{id}/work/: any of the fields; null clears one. */
export const workUpdateSchema = z.object({
  owner_id: z.optional(z.nullable(idSchema)),
  customer_id: z.optional(z.nullable(idSchema)),
  /** The customer by name: the organisation's customer of that name, made when there is none. */
  customer_name: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'A customer needs a name'),
        z.maxLength(MAX_NAME, 'A name is at most 200 characters'),
      ),
  ),
  requester: z.optional(
    z.nullable(
      z.string().check(z.trim(), z.maxLength(MAX_NAME, 'A requester is at most 200 characters')),
    ),
  ),
  due_date: z.optional(z.nullable(isoDay)),
  work_status: z.optional(z.enum(WORK_STATUSES)),
})
export type WorkUpdate = z.input<typeof workUpdateSchema>

/**
 * Issue 39: the work asked at upload, as the upload's form fields (text): the customer by name,
 * the due date and the owner's id; each optional, a blank field the same as none.
 */
export const uploadWorkSchema = z.object({
  customer_name: workUpdateSchema.shape.customer_name,
  due_date: z.optional(isoDay),
  owner_id: z.optional(z.coerce.number().check(z.int(), z.positive('An owner is a person'))),
})
export type UploadWork = z.output<typeof uploadWorkSchema>

/** GET filler/people/: the organisation's active people, for assigning, owning and mentioning. */
export const personSchema = z.object({
  id: z.int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['admin', 'approver', 'contributor', 'viewer']),
  /** Whether questions may be assigned to them (not viewers). */
  assignable: z.boolean(),
})
export type Person = z.infer<typeof personSchema>
export const peopleSchema = z.object({ results: z.array(personSchema) })

/* ---------------------------------------------------------------------- assignments */

/**
 * POST questionnaires/{id}/assign/: the questions named, or a tab's, or those matching a filter
 * (the workspace's filters), or all of them when none of those is given. `assignee_id: null`
 * unassigns. The due date may not be later than the questionnaire's.
 */
export const assignSchema = z.object({
  assignee_id: z.nullable(idSchema),
  question_ids: z.optional(z.array(idSchema).check(z.minLength(1), z.maxLength(10_000))),
  tab_id: z.optional(idSchema),
  filter: z.optional(z.enum(ANSWER_FILTERS)),
  due_date: z.optional(z.nullable(isoDay)),
  /**
   * A tab, a filter or all of them: approved answers are left out unless this says so (issue 39);
   * questions named one by one are assigned whatever their state.
   */
  include_approved: z._default(z.boolean(), false),
})
export type AssignRequest = z.input<typeof assignSchema>
export const assignResponseSchema = z.object({ assigned: z.int() })

export const REVIEW_ACTIONS = ['ready', 'approve', 'request_changes'] as const
export type ReviewAction = (typeof REVIEW_ACTIONS)[number]
/** POST questions/{question_id}/review/. Requesting changes takes a comment. */
export const reviewActionSchema = z.object({
  action: z.enum(REVIEW_ACTIONS),
  comment: z.optional(
    z.string().check(z.trim(), z.maxLength(5_000, 'A comment is at most 5,000 characters')),
  ),
})
export type ReviewActionRequest = z.input<typeof reviewActionSchema>

/** My work: how an assignment's due date groups it. */
export const WORK_GROUPS = ['overdue', 'this_week', 'later', 'no_date'] as const
export type WorkGroup = (typeof WORK_GROUPS)[number]
export const WORK_GROUP_LABELS: Record<WorkGroup, string> = {
  overdue: 'Overdue',
  this_week: 'This week',
  later: 'Later',
  no_date: 'No due date',
}

/** The texts of My work. */
export const MY_WORK_TEXTS = {
  title: 'My work',
  description: 'The questions assigned to you across questionnaires, soonest due first.',
  emptyTitle: 'Nothing assigned to you',
  empty:
    'When someone assigns you questions of a questionnaire, they show here, grouped by when they are due: overdue, this week, later. You are told in the bell too.',
  failed: 'Your work could not be read.',
} as const

/** GET me/assignments/: everything assigned to me, still to do, soonest first. */
export const myAssignmentSchema = z.object({
  questionnaire_id: z.int(),
  questionnaire: z.string(),
  customer: z.nullable(z.string()),
  question_id: z.int(),
  tab_id: z.int(),
  ref: z.nullable(z.string()),
  text: z.string(),
  /** The assignment's due date, else the questionnaire's. */
  due_date: z.nullable(z.string()),
  state: z.enum(REVIEW_STATES),
  group: z.enum(WORK_GROUPS),
})
export type MyAssignment = z.infer<typeof myAssignmentSchema>
export const myAssignmentsSchema = z.object({
  results: z.array(myAssignmentSchema),
  counts: z.object({ overdue: z.int(), this_week: z.int(), later: z.int(), no_date: z.int() }),
})
export type MyAssignments = z.infer<typeof myAssignmentsSchema>
/** GET me/assignments/?limit=: at most this many (500 unless asked). */
export const myAssignmentsQuerySchema = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(2_000)), 500),
})

/* -------------------------------------------------------------------------- comments */

export const MAX_COMMENT_BODY = 5_000
/**
 * POST questions/{question_id}/comments/. Mentions are the ids of people of the organisation, sent
 * beside the body (the body shows them as "@Name"); a reply names its thread's first comment.
 */
export const commentCreateSchema = z.object({
  body: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'A comment needs some text'),
      z.maxLength(MAX_COMMENT_BODY, 'A comment is at most 5,000 characters'),
    ),
  mentions: z.optional(z.array(idSchema).check(z.maxLength(50))),
  parent_id: z.optional(idSchema),
})
export type CommentCreate = z.input<typeof commentCreateSchema>
export const commentEditSchema = z.object({
  body: commentCreateSchema.shape.body,
  mentions: z.optional(z.array(idSchema).check(z.maxLength(50))),
})

export const commentSchema = z.object({
  id: z.int(),
  question_id: z.int(),
  /** The thread's first comment; null for a first comment. */
  parent_id: z.nullable(z.int()),
  author: z.nullable(userRefSchema),
  /** Plain text: shown as text, never as HTML. Empty once deleted. */
  body: z.string(),
  mentions: z.array(userRefSchema),
  created_at: z.string(),
  edited_at: z.nullable(z.string()),
  deleted: z.boolean(),
  /** Set on a thread's first comment when the thread is resolved. */
  resolved_at: z.nullable(z.string()),
  resolved_by: z.nullable(userRefSchema),
})
export type Comment = z.infer<typeof commentSchema>
export const commentListSchema = z.object({ results: z.array(commentSchema) })

/* --------------------------------------------------------------------- notifications */

export const NOTIFICATION_KINDS = [
  'assigned',
  'mentioned',
  'changes_requested',
  'approved',
  'due_soon',
  'overdue',
  /** Issue 40: a visitor asks for the trust centre's documents under NDA (to its admins). */
  'trust_request',
] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  assigned: 'A question is assigned to me',
  mentioned: 'Someone mentions me',
  changes_requested: 'Changes are requested on my answer',
  approved: 'My answer is approved',
  due_soon: 'Work of mine is due in 2 days',
  overdue: 'Work of mine is overdue',
  trust_request: 'A visitor asks for the trust centre’s documents under NDA',
}
/** Due and overdue work is told in one daily email; the others as they happen. */
export const DIGEST_KINDS: readonly NotificationKind[] = ['due_soon', 'overdue']
export const DUE_SOON_DAYS = 2

export const DELIVERY_CHANNELS = ['both', 'in_app', 'email', 'off'] as const
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number]
export const DELIVERY_CHANNEL_LABELS: Record<DeliveryChannel, string> = {
  both: 'In the app and by email',
  in_app: 'In the app',
  email: 'By email',
  off: 'Off',
}

export const notificationSchema = z.object({
  id: z.int(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** A plain sentence: 'Ada Lovelace assigned you 12 questions of CAIQ v4'. */
  text: z.string(),
  actor: z.nullable(userRefSchema),
  questionnaire_id: z.nullable(z.int()),
  question_id: z.nullable(z.int()),
  created_at: z.string(),
  read_at: z.nullable(z.string()),
})
export type Notification = z.infer<typeof notificationSchema>
export const notificationListSchema = z.object({
  unread: z.int(),
  results: z.array(notificationSchema),
})
export type NotificationList = z.infer<typeof notificationListSchema>
/** GET notifications/: newest first, before an id, at most `limit`, the unread ones only if asked. */
export const notificationListQuerySchema = z.object({
  before: z.optional(z.coerce.number().check(z.int(), z.positive())),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
  unread: z.optional(
    z.pipe(
      z.enum(['true', 'false']),
      z.transform((value) => value === 'true'),
    ),
  ),
})
/** notifications/unsubscribe/?token=: the mailed token; a missing or bad one is refused in words. */
export const unsubscribeQuerySchema = z.object({
  token: z._default(z.string().check(z.maxLength(1_000)), ''),
})
export const notificationReadSchema = z.union([
  z.object({ ids: z.array(idSchema).check(z.minLength(1), z.maxLength(500)) }),
  z.object({ all: z.literal(true) }),
])

export const notificationPreferencesSchema = z.object({
  preferences: z.record(z.enum(NOTIFICATION_KINDS), z.enum(DELIVERY_CHANNELS)),
})
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>
export const notificationPreferencesUpdateSchema = z.object({
  preferences: z.partialRecord(z.enum(NOTIFICATION_KINDS), z.enum(DELIVERY_CHANNELS)),
})

/* ----------------------------------------------------------------- live and activity */

/** What a questionnaire's stream says (server-sent events, one per open questionnaire). */
export const STREAM_EVENTS = ['presence', 'change'] as const
/** `export`: an export run finished (issue 37): the export menus read the latest file again. */
export const CHANGE_KINDS = ['answers', 'assignments', 'comments', 'work', 'export'] as const
export type ChangeKind = (typeof CHANGE_KINDS)[number]
export const presenceEventSchema = z.object({ viewers: z.array(userRefSchema) })
export const changeEventSchema = z.object({
  kind: z.enum(CHANGE_KINDS),
  /** Null: every question may have changed (read them all again). */
  question_ids: z.nullable(z.array(z.int())),
  /** Who made the change (their id), or null for Quire's own work. */
  by: z.nullable(z.int()),
  revision: z._default(z.nullable(z.int()), null),
})
export type ChangeEvent = z.infer<typeof changeEventSchema>

export const ACTIVITY_KINDS = [
  'assigned',
  'unassigned',
  'answered',
  'ready',
  'changes_requested',
  'approved',
  'commented',
  'exported',
  'work',
] as const
export type ActivityKind = (typeof ACTIVITY_KINDS)[number]
export const activitySchema = z.object({
  id: z.int(),
  kind: z.enum(ACTIVITY_KINDS),
  summary: z.string(),
  by: z.nullable(userRefSchema),
  question_id: z.nullable(z.int()),
  created_at: z.string(),
  /** The questionnaire it happened to (the organisation's recent activity names it). */
  questionnaire: z.optional(z.object({ id: z.int(), name: z.string() })),
})
export type Activity = z.infer<typeof activitySchema>
export const activityListSchema = z.object({ results: z.array(activitySchema) })
/** GET questionnaires/{id}/activity/: newest first, before an id, at most `limit` (50). */
export const activityQuerySchema = z.object({
  before: z.optional(z.coerce.number().check(z.int(), z.positive())),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
})

/** A questionnaire not yet sent, with its progress (home, issues 29 and 30). */
export const progressSchema = z.object({
  id: z.int(),
  name: z.string(),
  due_date: z.nullable(z.string()),
  overdue: z.boolean(),
  work_status: z.enum(WORK_STATUSES),
  customer: z.nullable(z.string()),
  owner: z.nullable(userRefSchema),
  questions: z.int(),
  /** Questions with a drafted or approved answer. */
  answered: z.int(),
  approved: z.int(),
})
export type Progress = z.infer<typeof progressSchema>

/**
 * Home (issues 29 and 30): the organisation's state. The questionnaires in progress (the overdue
 * first, then by due date), the answers waiting for a reviewer, the team's latest activity, and
 * which first steps have been taken (home shows the steps only until they are done).
 */
export const teamOverviewSchema = z.object({
  /** The overdue ones among them. */
  overdue: z.array(z.extend(progressSchema, { due_date: z.string() })),
  in_progress: z.array(progressSchema),
  /** All the questionnaires not yet sent (the list holds the first few). */
  in_progress_count: z.int(),
  review: z.object({
    /** Questions marked ready for review. */
    ready: z.int(),
    /** Drafted answers not yet approved, in questionnaires not yet sent. */
    drafts: z.int(),
  }),
  first_steps: z.object({
    documents: z.boolean(),
    library: z.boolean(),
    questionnaire: z.boolean(),
    chat: z.boolean(),
  }),
  activity: z.array(activitySchema),
})
export type TeamOverview = z.infer<typeof teamOverviewSchema>

/** A stale edit: 409 with the answer as it now is. */
export const STALE_EDIT = 'stale_version'

export const COLLABORATION_TEXTS = {
  customerNotFound: 'That customer was not found.',
  customerExists: 'A customer with that name already exists.',
  commentNotFound: 'That comment was not found.',
  notYourComment: 'Only its author can change a comment.',
  mentionOutside: 'Only people of your organisation can be mentioned.',
  /** {limit} is replaced. */
  tooManyPeople: 'A comment can mention at most {limit} people. Remove some of the mentions.',
  /** {limit} and {seconds} are replaced. */
  tooManyComments:
    'You can write at most {limit} comments a minute. Please wait {seconds} seconds and try again.',
  /** {limit} and {seconds} are replaced. */
  tooManyMentions:
    'You can mention at most {limit} people a minute. Please wait {seconds} seconds and try again, or mention fewer people.',
  assigneeNotAllowed: 'Questions are assigned only to active contributors, approvers and admins.',
  ownerNotAllowed: 'The owner must be an active person of your organisation.',
  dueAfterQuestionnaire: 'An assignment cannot be due after the questionnaire.',
  nothingToAssign: 'No question matches.',
  staleEdit:
    'Someone else changed this answer while you were editing. Compare their text with yours and save again.',
  reviewNotReady: 'Only an answered question can be marked ready for review.',
  changesNeedComment: 'Say what should change.',
  replyToReply: 'Reply to the thread’s first comment.',
  unsubscribed: 'You will no longer receive these emails.',
  unsubscribeInvalid: 'This unsubscribe link is not valid.',
  unsubscribeFailed: 'We could not reach Quire to unsubscribe you. Please try again.',
  commentEmpty: 'A comment needs some text',
  commentsLoadFailed: 'The comments could not be loaded',
  commentSaveFailed: 'The comment could not be saved',
  assignPeopleFailed: 'The people of your organisation could not be loaded',
  assignFailed: 'The questions could not be assigned',
  customersLoadFailed: 'The customers could not be loaded.',
  customerLoadFailed: 'This customer could not be loaded.',
  customerAddFailed: 'The customer could not be added.',
  preferencesLoadFailed: 'Your notification settings could not be read.',
  preferenceSaveFailed: 'Your choice could not be saved. Please try again.',
  reviewFailed: 'The review step could not be saved',
  teamFailed: 'What your team is working on could not be loaded.',
  workSaveFailed: 'The work details could not be saved.',
} as const
