import type { SnapshotFrom } from 'xstate'
import {
  type MyAssignment,
  type MyAssignments,
  WORK_GROUP_LABELS,
  WORK_GROUPS,
  type WorkGroup,
} from '../../contract/collaboration.ts'
import type { myWorkMachine } from './my-work.machine.ts'

export * from './my-work.machine.ts'

type Snapshot = SnapshotFrom<typeof myWorkMachine>

/** The texts of My work. */
export const MY_WORK_TEXTS = {
  title: 'My work',
  description: 'The questions assigned to you across questionnaires, soonest due first.',
  emptyTitle: 'Nothing assigned to you',
  empty:
    'When someone assigns you questions of a questionnaire, they show here, grouped by when they are due: overdue, this week, later. You are told in the bell too.',
  failed: 'Your work could not be read.',
} as const

/** What each group says under its heading. */
export const WORK_GROUP_HINTS: Record<WorkGroup, string> = {
  overdue: 'Past their due date',
  this_week: 'Due in the next 7 days',
  later: 'Due after this week',
  no_date: 'No date set',
}

export interface WorkGroupView {
  group: WorkGroup
  label: string
  hint: string
  items: MyAssignment[]
}

const NO_COUNTS: MyAssignments['counts'] = { overdue: 0, this_week: 0, later: 0, no_date: 0 }
const NO_GROUPS: WorkGroupView[] = []

/** The groups that have items, in the order overdue, this week, later, no due date. */
export const groupsOf = (work: MyAssignments | null): WorkGroupView[] =>
  work
    ? WORK_GROUPS.map((group) => ({
        group,
        label: WORK_GROUP_LABELS[group],
        hint: WORK_GROUP_HINTS[group],
        items: work.results.filter((item) => item.group === group),
      })).filter((group) => group.items.length > 0)
    : NO_GROUPS

/** What needs doing soon: the sidebar's count (overdue and this week). */
export const soonCount = (work: MyAssignments | null) =>
  work ? work.counts.overdue + work.counts.this_week : 0

/** The groups of a snapshot, computed once per work read (a view map compares by reference). */
const groupsCache = new WeakMap<MyAssignments, WorkGroupView[]>()
const cachedGroups = (work: MyAssignments | null) => {
  if (!work) return NO_GROUPS
  let groups = groupsCache.get(work)
  if (!groups) {
    groups = groupsOf(work)
    groupsCache.set(work, groups)
  }
  return groups
}

/** What My work and the home page read, through `useView`. */
export const myWorkView = {
  groups: (s: Snapshot) => cachedGroups(s.context.work),
  counts: (s: Snapshot) => s.context.work?.counts ?? NO_COUNTS,
  total: (s: Snapshot) => s.context.work?.results.length ?? 0,
  soon: (s: Snapshot) => soonCount(s.context.work),
  /** Read once at least (the empty state shows only then). */
  loaded: (s: Snapshot) => s.context.work !== null,
  loading: (s: Snapshot) => s.hasTag('loading'),
  error: (s: Snapshot) => (s.matches('failed') ? s.context.error : null),
}

/** The sidebar's count of My work. */
export const selectSoonCount = (s: Snapshot) => soonCount(s.context.work)
