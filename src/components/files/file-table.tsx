import { Link } from '@tanstack/react-router'
import { Boxes, FileSpreadsheet, FileText, Globe, Upload } from 'lucide-react'
import type { ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { flex, wrap } from 'styled-system/patterns'
import {
  FILE_KIND_LABELS,
  type FileKind,
  type RepositoryFile,
} from '../../../contract/knowledge.ts'
import type { QueueItem } from '../../../machines/upload-queue/index.ts'
import { formatBytes } from '../../lib/format.ts'
import { RelativeTime } from '../relative-time.tsx'
import { chip, errorLine, muted, nameText } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import { LinearProgress } from '../ui/progress.tsx'
import { StatusBadge } from './status-badge.tsx'

/** The columns a file table can show beside the name; the order here is the order on screen. */
export type FileColumn = 'kind' | 'size' | 'passages' | 'tags' | 'status' | 'added'

const HEADERS: Record<FileColumn, string> = {
  kind: 'Type',
  size: 'Size',
  passages: 'Passages',
  tags: 'Tags',
  status: 'Status',
  added: 'Added',
}
const ORDER: FileColumn[] = ['kind', 'size', 'passages', 'tags', 'status', 'added']

const tableFrame = css({
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
  overflowX: { base: 'hidden', md: 'auto' },
})
// a table from md up; below, each row is a card: checkbox, name and actions on the first line,
// every other column wrapping underneath
const table = css({
  display: { base: 'block', md: 'table' },
  w: 'full',
  borderCollapse: 'collapse',
  textStyle: 'sm',
  '& thead, & tbody': { display: { base: 'block', md: 'table-row-group' } },
  '& tr': {
    display: { base: 'flex', md: 'table-row' },
    flexWrap: 'wrap',
    alignItems: 'center',
    borderBottomWidth: { base: '1px', md: '0' },
    borderColor: 'border.subtle',
    pb: { base: '2', md: '0' },
    _after: { content: '""', flexBasis: '100%', order: '0', md: { display: 'none' } },
  },
  '& tbody tr:last-child': { borderBottomWidth: '0' },
  '& th': {
    textAlign: 'left',
    fontWeight: 'medium',
    color: 'fg.muted',
    px: '3',
    py: '2.5',
    borderBottomWidth: { base: '0', md: '1px' },
    borderColor: 'border.subtle',
    whiteSpace: 'nowrap',
  },
  '& td': {
    display: { base: 'block', md: 'table-cell' },
    px: '3',
    py: '2.5',
    borderBottomWidth: { base: '0', md: '1px' },
    borderColor: 'border.subtle',
    verticalAlign: 'middle',
  },
  '& tr:last-child td': { borderBottomWidth: '0' },
})
// under the name, aligned with it (past the kind's icon)
const productLine = css({
  display: 'flex',
  alignItems: 'center',
  gap: '1',
  ps: '6',
  mt: '0.5',
  textStyle: 'xs',
  color: 'fg.muted',
})
const nameColumn = css({ flex: '1 1 0', minW: '0' })
const edgeColumn = css({ flex: '0 0 auto' })
// below md: the other columns sit under the name, aligned with it
const detail = css({
  order: '1',
  flex: '0 0 auto',
  py: { base: '1 !important', md: '2.5 !important' },
  pl: { base: '0 !important', md: '3 !important' },
})
// the first detail, and the date and tags on lines of their own after it, start under the name
const detailStart = css({
  pl: { base: '3 !important', md: '3 !important' },
  '[data-selectable] &': { pl: { base: '10 !important', md: '3 !important' } },
})
const detailWide = css({ order: '2', flexBasis: { base: '100%', md: 'auto' } })
const headerDetail = css({ display: { base: 'none', md: 'table-cell' } })
const nameCell = flex({
  align: 'center',
  gap: '2',
  minW: { base: '0', md: '10rem' },
  maxW: { base: 'none', md: '22rem' },
})
const chips = wrap({ gap: '1' })
// a file's name opens its page (issue 30)
const fileLink = css({ color: 'fg.default', _hover: { textDecoration: 'underline' } })
const versionChip = css({ flexShrink: '0', fontVariantNumeric: 'tabular-nums' })
const checkbox = css({
  w: '4',
  h: '4',
  cursor: 'pointer',
  accentColor: 'var(--colors-color-palette-default)',
})

const kindIcon = (kind: FileKind) =>
  kind === 'xlsx' || kind === 'csv' ? FileSpreadsheet : kind === 'html' ? Globe : FileText

export interface FileSelection {
  selected: number[]
  onToggle: (id: number) => void
  onToggleAll: (all: boolean) => void
}

/**
 * The one file table of the repository and the knowledge base: a table on wide screens, a card
 * per file on a phone. It renders what it is given and reports clicks; the machines decide.
 */
export function FileTable(props: {
  files: RepositoryFile[]
  columns: FileColumn[]
  busy?: boolean
  selection?: FileSelection
  /** When given, tags are buttons that filter by the tag. */
  onTag?: (tag: string) => void
  actions: (file: RepositoryFile) => ReactNode
  /** Products' names by id: a file that speaks for one product says which (issue 38). */
  productNames?: Map<number, string>
  /**
   * The uploads still in the browser, before the files (issue 30): one list, in which each file
   * shows one status; once the server has a file, its own row shows it.
   */
  uploads?: {
    items: QueueItem[]
    onRetry: (key: string) => void
    onRemove: (key: string) => void
  }
}) {
  const columns = ORDER.filter((column) => props.columns.includes(column))
  const { selection } = props
  const allSelected =
    props.files.length > 0 && props.files.every((file) => selection?.selected.includes(file.id))
  const cell = (file: RepositoryFile, column: FileColumn): ReactNode => {
    switch (column) {
      case 'kind':
        return FILE_KIND_LABELS[file.kind]
      case 'size':
        return file.size ? formatBytes(file.size) : '—'
      case 'passages':
        return `${file.passages} passages`
      case 'tags':
        return (
          <div className={chips}>
            {file.tags.map((tag) =>
              props.onTag ? (
                <button
                  key={tag}
                  type="button"
                  className={cx(chip, css({ cursor: 'pointer' }))}
                  onClick={() => props.onTag?.(tag)}
                >
                  {tag}
                </button>
              ) : (
                <span key={tag} className={chip}>
                  {tag}
                </span>
              ),
            )}
          </div>
        )
      case 'status':
        return (
          <>
            <StatusBadge status={file.status} progress={file.progress} />
            {file.status === 'failed' && file.error && (
              <div className={errorLine}>{file.error}</div>
            )}
          </>
        )
      case 'added':
        return (
          <RelativeTime
            iso={file.created_at}
            suffix={file.added_by ? ` · ${file.added_by.name}` : ''}
          />
        )
    }
  }
  return (
    <div className={tableFrame}>
      <table
        className={table}
        aria-busy={props.busy || undefined}
        data-selectable={selection ? '' : undefined}
      >
        <thead>
          <tr>
            {selection && (
              <th className={edgeColumn}>
                <input
                  type="checkbox"
                  className={checkbox}
                  aria-label="Select all files"
                  checked={allSelected}
                  onChange={() => selection.onToggleAll(!allSelected)}
                />
              </th>
            )}
            <th className={nameColumn}>Name</th>
            {columns.map((column) => (
              <th key={column} className={headerDetail}>
                {HEADERS[column]}
              </th>
            ))}
            <th className={headerDetail}>
              <span className={css({ srOnly: true })}>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.uploads?.items.map((item) => (
            <tr key={item.key} data-testid="upload-row">
              {selection && <td className={edgeColumn} />}
              <td className={nameColumn}>
                <div className={nameCell}>
                  <Upload size={16} aria-hidden className={css({ flexShrink: '0' })} />
                  <span className={nameText} title={item.name}>
                    {item.name}
                  </span>
                </div>
                {item.error && <div className={errorLine}>{item.error}</div>}
              </td>
              {columns.map((column, index) => (
                <td
                  key={column}
                  className={cx(detail, index === 0 && detailStart, column !== 'status' && muted)}
                >
                  {column === 'size' ? (
                    formatBytes(item.size)
                  ) : column === 'status' ? (
                    <>
                      <StatusBadge status={item.status} progress={item.progress} />
                      {item.status === 'uploading' && (
                        <LinearProgress
                          value={item.progress}
                          size="sm"
                          showValueText={false}
                          aria-label={`${item.name} progress`}
                          className={css({ mt: '1', maxW: '8rem' })}
                        />
                      )}
                    </>
                  ) : null}
                </td>
              ))}
              <td className={cx(edgeColumn, css({ textAlign: 'right', whiteSpace: 'nowrap' }))}>
                {item.status === 'failed' && (
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={() => props.uploads?.onRetry(item.key)}
                  >
                    Retry
                  </Button>
                )}
                {item.status !== 'uploading' && (
                  <Button
                    size="xs"
                    variant="ghost"
                    onClick={() => props.uploads?.onRemove(item.key)}
                    aria-label={`Remove ${item.name}`}
                  >
                    Remove
                  </Button>
                )}
              </td>
            </tr>
          ))}
          {props.files.map((file) => {
            const Icon = kindIcon(file.kind)
            return (
              <tr key={file.id} data-testid="file-row">
                {selection && (
                  <td className={edgeColumn}>
                    <input
                      type="checkbox"
                      className={checkbox}
                      aria-label={`Select ${file.name}`}
                      checked={selection.selected.includes(file.id)}
                      onChange={() => selection.onToggle(file.id)}
                    />
                  </td>
                )}
                <td className={nameColumn}>
                  <div className={nameCell}>
                    <Icon
                      size={16}
                      aria-hidden
                      className={css({ flexShrink: '0', color: 'fg.muted' })}
                    />
                    <Link
                      to="/repository/$id"
                      params={{ id: file.id }}
                      className={cx(nameText, fileLink)}
                      title={file.source_url ?? file.name}
                    >
                      {file.name}
                    </Link>
                    {file.version > 1 && (
                      <span
                        className={cx(chip, versionChip)}
                        title={`Version ${file.version}`}
                        data-testid="file-version-chip"
                      >
                        v{file.version}
                      </span>
                    )}
                  </div>
                  {file.product_id && props.productNames?.get(file.product_id) && (
                    <div className={productLine} title="Speaks for">
                      <Boxes size={12} aria-hidden />
                      <span className={css({ srOnly: true })}>Speaks for: </span>
                      {props.productNames.get(file.product_id)}
                    </div>
                  )}
                </td>
                {columns.map((column, index) => (
                  <td
                    key={column}
                    className={cx(
                      detail,
                      (index === 0 || column === 'tags' || column === 'added') && detailStart,
                      (column === 'tags' || column === 'added') && detailWide,
                      column !== 'tags' && column !== 'status' && muted,
                    )}
                  >
                    {cell(file, column)}
                  </td>
                ))}
                <td className={cx(edgeColumn, css({ textAlign: 'right' }))}>
                  {props.actions(file)}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
