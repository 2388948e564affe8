import type { SnapshotFrom } from 'xstate'
import {
  type MyAssignment,
  type MyAssignments,
  WORK_GROUP_LABELS,
  WORK_GROUPS,
  type WorkGroup,
} from '../../contract/collaboration.ts'
import { REVIEW_STATE_LABELS, REVIEW_STATES, type ReviewState } from '../../contract/work.ts'
import type { MyWorkFilter, myWorkMachine } from './my-work.machine.ts'

export { MY_WORK_TEXTS } from '../../contract/collaboration.ts'
export * from './my-work.machine.ts'

type Snapshot = SnapshotFrom<typeof myWorkMachine>

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

/** How many of a questionnaire's questions a due group shows before 'Show all' (issue 39). */
export const SHOWN_PER_QUESTIONNAIRE = 5

/** A questionnaire's questions within a due group: the first few, or all once expanded. */
export interface WorkQuestionnaireView {
  key: string
  questionnaireId: number
  name: string
  customer: string | null
  total: number
  items: MyAssignment[]
  expanded: boolean
}

/** A due group whose questions stand under their questionnaire. */
export interface WorkGroupByQuestionnaire extends WorkGroupView {
  questionnaires: WorkQuestionnaireView[]
}

/** The questions of a group, under their questionnaires in the order they first come. */
export function byQuestionnaire(
  group: WorkGroupView,
  expanded: readonly string[],
): WorkGroupByQuestionnaire {
  const order: number[] = []
  const items = new Map<number, MyAssignment[]>()
  for (const item of group.items) {
    if (!items.has(item.questionnaire_id)) {
      order.push(item.questionnaire_id)
      items.set(item.questionnaire_id, [])
    }
    items.get(item.questionnaire_id)?.push(item)
  }
  return {
    ...group,
    questionnaires: order.map((id) => {
      const all = items.get(id) ?? []
      const key = `${group.group}:${id}`
      const open = expanded.includes(key)
      return {
        key,
        questionnaireId: id,
        name: all[0]?.questionnaire ?? '',
        customer: all[0]?.customer ?? null,
        total: all.length,
        items: open ? all : all.slice(0, SHOWN_PER_QUESTIONNAIRE),
        expanded: open,
      }
    }),
  }
}

/** The review states among my questions, with their counts, for the filter (issue 39). */
export const filtersOf = (work: MyAssignments | null) => {
  const counts = new Map<ReviewState, number>()
  for (const item of work?.results ?? []) counts.set(item.state, (counts.get(item.state) ?? 0) + 1)
  return REVIEW_STATES.filter((state) => counts.has(state)).map((state) => ({
    state,
    label: REVIEW_STATE_LABELS[state],
    count: counts.get(state) ?? 0,
  }))
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

/** My work as the page shows it: filtered by review state, each group by questionnaire. */
const shownCache = new WeakMap<MyAssignments, Map<string, { groups: WorkGroupByQuestionnaire[] }>>()
function shownGroups(
  work: MyAssignments | null,
  filter: MyWorkFilter,
  expanded: readonly string[],
): WorkGroupByQuestionnaire[] {
  if (!work) return []
  const key = `${filter}|${expanded.join(',')}`
  let byKey = shownCache.get(work)
  if (!byKey) {
    byKey = new Map()
    shownCache.set(work, byKey)
  }
  const cached = byKey.get(key)
  if (cached) return cached.groups
  const results =
    filter === 'all' ? work.results : work.results.filter((item) => item.state === filter)
  const groups = groupsOf({ ...work, results }).map((group) => byQuestionnaire(group, expanded))
  byKey.set(key, { groups })
  return groups
}
const filtersCache = new WeakMap<MyAssignments, ReturnType<typeof filtersOf>>()
const cachedFilters = (work: MyAssignments | null) => {
  if (!work) return filtersOf(null)
  let filters = filtersCache.get(work)
  if (!filters) {
    filters = filtersOf(work)
    filtersCache.set(work, filters)
  }
  return filters
}

/** What the My work page reads (issue 39): the filter, its choices, the groups it shows. */
export const myWorkPageView = {
  filter: (s: Snapshot) => s.context.filter,
  filters: (s: Snapshot) => cachedFilters(s.context.work),
  shown: (s: Snapshot) => shownGroups(s.context.work, s.context.filter, s.context.expanded),
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
