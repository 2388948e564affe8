import type { SnapshotFrom } from 'xstate'
import type { FileDetails } from '../../contract/file-page.ts'
import { type filePageMachine, PASSAGES_PAGE_SIZE } from './file-page.machine.ts'

export * from './file-page.machine.ts'
export type * from './file-page.types.ts'

type Snapshot = SnapshotFrom<typeof filePageMachine>
const NONE: never[] = []
const details = (s: Snapshot): FileDetails | null => s.context.details

/** What the file page reads, through `useView`. */
export const filePageView = {
  file: (s: Snapshot) => details(s)?.file ?? null,
  history: (s: Snapshot) => details(s)?.history ?? NONE,
  versions: (s: Snapshot) => details(s)?.versions ?? NONE,
  answers: (s: Snapshot) => details(s)?.answers ?? NONE,
  answersCount: (s: Snapshot) => details(s)?.answers_count ?? 0,
  items: (s: Snapshot) => details(s)?.items ?? NONE,
  loading: (s: Snapshot) => s.hasTag('loading') && !s.context.details,
  error: (s: Snapshot) => (s.matches({ file: 'failed' }) ? s.context.error : null),
  passages: (s: Snapshot) => s.context.passages,
  count: (s: Snapshot) => s.context.count,
  page: (s: Snapshot) => s.context.page,
  /** The document's page a cited source opened at, whose passages are marked. */
  citedPage: (s: Snapshot) => s.context.citedPage,
  citedQuote: (s: Snapshot) => s.context.citedQuote,
  pages: (s: Snapshot) => Math.max(1, Math.ceil(s.context.count / PASSAGES_PAGE_SIZE)),
  reading: (s: Snapshot) => s.hasTag('reading'),
  readError: (s: Snapshot) => (s.matches({ read: 'failed' }) ? s.context.readError : null),
}
