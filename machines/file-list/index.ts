import type { SnapshotFrom } from 'xstate'
import type { RepositoryFile } from '../../contract/knowledge.ts'
import type { fileListMachine } from './file-list.machine.ts'

export * from './file-list.machine.ts'

type Snapshot = SnapshotFrom<typeof fileListMachine>
export const selectFiles = (snapshot: Snapshot) => snapshot.context.files
export const selectCount = (snapshot: Snapshot) => snapshot.context.count
export const selectQuery = (snapshot: Snapshot) => snapshot.context.query
export const selectSelected = (snapshot: Snapshot) => snapshot.context.selected
export const selectPendingDelete = (snapshot: Snapshot) => snapshot.context.pendingDelete
export const selectIsConfirming = (snapshot: Snapshot) =>
  snapshot.matches('confirming') || snapshot.matches('deleting')
export const selectIsLoading = (snapshot: Snapshot) =>
  snapshot.hasTag('loading') && !snapshot.context.loaded
export const selectIsBusy = (snapshot: Snapshot) => snapshot.hasTag('busy')
export const selectError = (snapshot: Snapshot) =>
  snapshot.matches('failed') ? snapshot.context.error : null
export const selectTagging = (snapshot: Snapshot) => snapshot.context.tagging

/** Some search or filter narrows the list. */
export const selectFiltered = (snapshot: Snapshot) => {
  const { q, kind, status, tag, product } = snapshot.context.query
  return Boolean(q || kind || status || tag || product)
}

/**
 * What the list area shows: its error, loading, the first-run empty state, no match, or the
 * table. Uploads still in the browser count as rows: the table lists them before the files.
 */
export function fileListContent(
  view: { listError: string | null; loading: boolean; files: unknown[]; filtered: boolean },
  uploads: number,
): 'error' | 'loading' | 'empty' | 'noMatch' | 'table' {
  if (view.listError) return 'error'
  if (view.loading) return 'loading'
  if (view.files.length > 0 || uploads > 0) return 'table'
  return view.filtered ? 'noMatch' : 'empty'
}

/** What a file's row menu offers: a file fetched from an address is replaced by fetching it again. */
export const fileRow = (file: RepositoryFile, options: { replacing: boolean }) => ({
  replaceDisabled: options.replacing || Boolean(file.source_url),
})

/** What repository-page reads, through `useView`. */
export const fileListView = {
  filtered: selectFiltered,
  /** The pager's words and numbers. */
  pagerTotal: (s: Snapshot) => `${s.context.count} ${s.context.count === 1 ? 'file' : 'files'}`,
  pages: (s: Snapshot) => Math.max(1, Math.ceil(s.context.count / s.context.query.page_size)),
  pagerPosition: (s: Snapshot) => {
    const pages = Math.max(1, Math.ceil(s.context.count / s.context.query.page_size))
    return `Page ${s.context.query.page} of ${pages}`
  },
  /** The bulk delete, shown with something selected, saying how many. */
  deleteSelectedLabel: (s: Snapshot) =>
    s.context.selected.length ? `Delete selected (${s.context.selected.length})` : null,
  files: selectFiles,
  count: selectCount,
  query: selectQuery,
  selected: selectSelected,
  pendingDelete: selectPendingDelete,
  confirming: selectIsConfirming,
  deleting: (s: Snapshot) => s.matches('deleting'),
  loading: selectIsLoading,
  busy: selectIsBusy,
  listError: selectError,
  tagging: selectTagging,
}
