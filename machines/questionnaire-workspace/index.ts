export * from './questionnaire-workspace.machine.ts'

import type { SnapshotFrom } from 'xstate'
import {
  type questionnaireWorkspaceMachine,
  visibleRows,
} from './questionnaire-workspace.machine.ts'

type Snapshot = SnapshotFrom<typeof questionnaireWorkspaceMachine>
export const selectQuestionnaire = (s: Snapshot) => s.context.questionnaire
export const selectTabs = (s: Snapshot) => s.context.tabs
export const selectTabId = (s: Snapshot) => s.context.tabId
export const selectFilter = (s: Snapshot) => s.context.filter
export const selectFocusedId = (s: Snapshot) => s.context.focusedId
export const selectAllRows = (s: Snapshot) => s.context.rows
export const selectLoadError = (s: Snapshot) =>
  s.matches({ main: 'failed' }) ? s.context.error : null
export const selectIsLoading = (s: Snapshot) => s.hasTag('loading')
export const selectInProgress = (s: Snapshot) => s.matches({ main: 'progress' })
export const selectIsBusy = (s: Snapshot) => s.hasTag('busy')
export const selectIsGenerating = (s: Snapshot) => s.context.questionnaire?.status === 'generating'
export const selectIsCancelling = (s: Snapshot) => s.matches({ main: { progress: 'cancelling' } })
export const selectHistoryOpen = (s: Snapshot) => !s.matches({ history: 'closed' })
export const selectHistoryLoading = (s: Snapshot) => s.matches({ history: 'loading' })
export const selectHistory = (s: Snapshot) => s.context.history
export const selectHistoryError = (s: Snapshot) => s.context.historyError
export const selectMappingTab = (s: Snapshot) => s.context.mappingTab
export const selectMappingError = (s: Snapshot) => s.context.mappingError
export const selectNoticeOpen = (s: Snapshot) => s.matches({ notice: 'open' })
export const selectMaxAnswers = (s: Snapshot) => s.context.maxAnswers
/** Rows of the chosen tab through the filter; a new array only when its inputs change. */
export const selectVisibleRows = (() => {
  let last: {
    rows: unknown
    tabId: unknown
    filter: unknown
    result: ReturnType<typeof visibleRows>
  } | null = null
  return (s: Snapshot) => {
    const { rows, tabId, filter } = s.context
    if (last && last.rows === rows && last.tabId === tabId && last.filter === filter)
      return last.result
    const result = visibleRows(s.context)
    last = { rows, tabId, filter, result }
    return result
  }
})()
/** The questionnaire was read (not analysing): what an earlier questionnaire is matched against. */
export const selectIsRead = (s: Snapshot) =>
  s.matches({ main: 'ready' }) && s.context.questionnaire?.status === 'ready'
/** Some question was carried from an earlier questionnaire: it was started from one. */
export const selectHasCarried = (s: Snapshot) => s.context.rows.some((row) => row.carried_from)
export const selectEvidenceFiles = (s: Snapshot) => s.context.evidenceFiles

/** What workspace-status reads, through `useView`. */
export const workspaceStatusView = {
  questionnaire: selectQuestionnaire,
  tabs: selectTabs,
  inProgress: selectInProgress,
  generating: selectIsGenerating,
  cancelling: selectIsCancelling,
}

/** What workspace-header reads, through `useView`. */
export const workspaceHeaderView = {
  questionnaire: selectQuestionnaire,
  busy: selectIsBusy,
  inProgress: selectInProgress,
  /** Who has the questionnaire open (issue 29). */
  viewers: (s: Snapshot) => s.context.viewers,
  /** Live updates are paused: the server refused the stream for a while (issue 37). */
  livePaused: (s: Snapshot) => s.context.livePaused,
}

/** What workspace-tabs reads, through `useView`. */
export const workspaceTabsView = {
  tabs: selectTabs,
  tabId: selectTabId,
  filter: selectFilter,
  allRows: selectAllRows,
  busy: selectIsBusy,
  inProgress: selectInProgress,
}

/** The focused question's row, among those shown (a new one only when the row changes). */
export const selectFocusedRow = (s: Snapshot) =>
  selectVisibleRows(s).find((row) => row.id === s.context.focusedId) ?? null
/** The chosen tab, when it still exists. */
export const selectCurrentTab = (s: Snapshot) =>
  s.context.tabs.find((tab) => tab.id === s.context.tabId) ?? null
/** The question whose deletion waits for confirmation. */
export const selectDeleting = (s: Snapshot) =>
  s.matches({ deleting: 'asking' })
    ? (s.context.rows.find((row) => row.id === s.context.deletingId) ?? null)
    : null

/** The children the workspace runs, for the views that render them (issue 43). */
export const workspaceChildrenView = {
  exports: (s: Snapshot) => s.children.exports,
  carry: (s: Snapshot) => s.children.carry,
  sections: (s: Snapshot) => s.children.sections,
  assignment: (s: Snapshot) => s.children.assignment,
  activity: (s: Snapshot) => s.children.activity,
}

/** What questionnaire-page reads, through `useView`. */
export const workspacePageView = {
  ...workspaceChildrenView,
  questionnaire: selectQuestionnaire,
  tabs: selectTabs,
  tabId: selectTabId,
  filter: selectFilter,
  focusedId: selectFocusedId,
  focused: selectFocusedRow,
  currentTab: selectCurrentTab,
  /** The grid's label: the chosen tab's questions. */
  gridLabel: (s: Snapshot) => `Questions of ${selectCurrentTab(s)?.name ?? 'the questionnaire'}`,
  /** The chosen tab has no questions at all (not only none through the filter). */
  tabEmpty: (s: Snapshot) => selectCurrentTab(s)?.questions === 0,
  /** An empty tab whose columns can be mapped: it has rows to preview. */
  canMapTab: (s: Snapshot) => {
    const tab = selectCurrentTab(s)
    return tab !== null && tab.questions === 0 && tab.preview.length > 0
  },
  mappingTab: (s: Snapshot) =>
    s.context.tabs.find((tab) => tab.name === s.context.mappingTab) ?? null,
  rows: selectVisibleRows,
  evidenceFiles: selectEvidenceFiles,
  loading: selectIsLoading,
  loadError: selectLoadError,
  busy: selectIsBusy,
  historyOpen: selectHistoryOpen,
  historyLoading: selectHistoryLoading,
  history: selectHistory,
  historyError: selectHistoryError,
  mappingError: selectMappingError,
  noticeOpen: selectNoticeOpen,
  maxAnswers: selectMaxAnswers,
  /** On a narrow screen, the focused answer's sheet is open. */
  sheetOpen: (s: Snapshot) => s.matches({ sheet: 'open' }) && s.context.focusedId !== null,
  customOpen: (s: Snapshot) => s.matches({ custom: 'open' }),
  deleting: selectDeleting,
}
