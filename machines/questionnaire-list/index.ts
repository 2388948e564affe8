export * from './filters.ts'
export * from './questionnaire-list.machine.ts'
export type * from './questionnaire-list.types.ts'

import type { SnapshotFrom } from 'xstate'
import type { Questionnaire, QuestionnaireStatus } from '../../contract/questionnaires.ts'
import { isFiltered } from './filters.ts'
import type { questionnaireListMachine } from './questionnaire-list.machine.ts'
import type { UploadRow } from './questionnaire-list.types.ts'

type Snapshot = SnapshotFrom<typeof questionnaireListMachine>
export const selectItems = (s: Snapshot) => s.context.items
export const selectSelected = (s: Snapshot) => s.context.selected
export const selectUploads = (s: Snapshot) => s.context.uploads
export const selectPendingDelete = (s: Snapshot) => s.context.pendingDelete
export const selectIsConfirming = (s: Snapshot) => !s.matches({ deletion: 'idle' })
export const selectIsDeleting = (s: Snapshot) => s.matches({ deletion: 'deleting' })
export const selectIsLoading = (s: Snapshot) => s.hasTag('loading') && !s.context.loaded
export const selectListError = (s: Snapshot) =>
  s.matches({ list: 'failed' }) ? s.context.error : null

/** Each status in the list's words, with the colour it is shown in. */
export const QUESTIONNAIRE_STATUS: Record<
  QuestionnaireStatus,
  { label: string; tone: 'gray' | 'blue' | 'green' | 'red' }
> = {
  queued: { label: 'Queued', tone: 'gray' },
  analyzing: { label: 'Analysing', tone: 'blue' },
  ready: { label: 'Ready', tone: 'green' },
  generating: { label: 'Generating', tone: 'blue' },
  failed: { label: 'Failed', tone: 'red' },
}

/**
 * What a questionnaire's row shows, ready for the view: its status, its progress while a job runs
 * (else how much is answered), its portal's address as read, whether its mapping wants a look and
 * the error of a failed analysis.
 */
export function questionnaireRow(item: Questionnaire, options: { checked: boolean }) {
  const status = QUESTIONNAIRE_STATUS[item.status]
  const running =
    item.status === 'queued' || item.status === 'analyzing' || item.status === 'generating'
  const percent = item.questions ? Math.round((item.answered / item.questions) * 100) : 0
  return {
    item,
    checked: options.checked,
    status,
    /** While a job runs: its progress bar's value and words. */
    progress: running ? { value: item.progress, label: item.progress_label ?? status.label } : null,
    answered: item.status === 'ready' ? `${percent}% answered` : '—',
    counts: `${item.questions.toLocaleString()} questions · ${item.answered.toLocaleString()} answered`,
    /** A portal's address as a person reads it: host and path, without the scheme. */
    portal: item.portal_url ? item.portal_url.replace(/^https?:\/\//, '') : null,
    checkMapping: item.unsure_tabs > 0 && item.status === 'ready',
    error: item.status === 'failed' ? item.error : null,
  }
}
export type QuestionnaireRowView = ReturnType<typeof questionnaireRow>

/** An upload's row: its progress (waiting, or how much is sent), or its error to dismiss. */
export function uploadRow(row: UploadRow) {
  return {
    key: row.key,
    name: row.name,
    error: row.status === 'failed' ? row.error : null,
    progress:
      row.status === 'failed'
        ? null
        : row.status === 'uploading'
          ? { value: row.progress, label: 'Uploading' }
          : { value: null, label: 'Waiting' },
  }
}

/** The rows, each ready for the view; new ones only when the items or the selection change. */
const selectRows = (() => {
  let last: { items: unknown; selected: unknown; rows: QuestionnaireRowView[] } | null = null
  return (s: Snapshot) => {
    const { items, selected } = s.context
    if (last && last.items === items && last.selected === selected) return last.rows
    const rows = items.map((item) =>
      questionnaireRow(item, { checked: selected.includes(item.id) }),
    )
    last = { items, selected, rows }
    return rows
  }
})()

/** What the list area shows: loading, the first-run empty state, no match, or the table. */
export const selectContent = (s: Snapshot): 'loading' | 'empty' | 'noMatch' | 'table' | 'none' => {
  if (selectIsLoading(s)) return 'loading'
  const filtered = isFiltered(s.context.filters)
  if (s.context.items.length === 0) {
    if (filtered) return 'noMatch'
    return selectListError(s) ? 'none' : 'empty'
  }
  return 'table'
}

/** What questionnaires-page reads, through `useView`. */
export const questionnaireListView = {
  rows: selectRows,
  content: selectContent,
  uploadRows: (() => {
    let last: { uploads: unknown; rows: ReturnType<typeof uploadRow>[] } | null = null
    return (s: Snapshot) => {
      if (last?.uploads === s.context.uploads) return last.rows
      last = { uploads: s.context.uploads, rows: s.context.uploads.map(uploadRow) }
      return last.rows
    }
  })(),
  /** The bulk delete: off with nothing selected; its label says how many it deletes. */
  deleteDisabled: (s: Snapshot) => s.context.selected.length === 0,
  deleteLabel: (s: Snapshot) =>
    s.context.selected.length
      ? `Delete selected (${s.context.selected.length})`
      : 'Delete selected',
  allSelected: (s: Snapshot) =>
    s.context.items.length > 0 && s.context.selected.length === s.context.items.length,
  items: selectItems,
  selected: selectSelected,
  uploads: selectUploads,
  pendingDelete: selectPendingDelete,
  confirming: selectIsConfirming,
  deleting: selectIsDeleting,
  loading: selectIsLoading,
  error: selectListError,
  filters: (s: Snapshot) => s.context.filters,
  filtered: (s: Snapshot) => isFiltered(s.context.filters),
  /** The product the questionnaires dropped next are for (null: all products). */
  uploadProduct: (s: Snapshot) => s.context.productId,
  /** The customer, due date and owner asked for the questionnaires dropped next (issue 39). */
  uploadWork: (s: Snapshot) => s.context.uploadWork,
}
