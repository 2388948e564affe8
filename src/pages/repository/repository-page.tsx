import { Portal } from '@ark-ui/react/portal'
import { useActorRef, useSelector } from '@xstate/react'
import {
  Download,
  FileSpreadsheet,
  FileText,
  FolderOpen,
  Globe,
  Link2,
  MoreHorizontal,
  RefreshCw,
  Tags,
  Trash2,
  Upload,
} from 'lucide-react'
import { type DragEvent, useEffect, useId, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import {
  DEFAULT_MAX_UPLOAD_MB,
  FILE_ACCEPT,
  FILE_KIND_LABELS,
  FILE_KINDS,
  FILE_STATUSES,
  type FileKind,
  type FileStats,
  fileStatsSchema,
  type RepositoryFile,
} from '../../../contract/knowledge.ts'
import { paths } from '../../../contract/paths.ts'
import {
  selectCount,
  selectError,
  selectFiles,
  selectIsBusy,
  selectIsConfirming,
  selectIsLoading,
  selectPendingDelete,
  selectQuery,
  selectSelected,
} from '../../../machines/file-list/index.ts'
import {
  type QueueItem,
  selectHasFinished,
  selectItems,
} from '../../../machines/upload-queue/index.ts'
import { api } from '../../api/client.ts'
import { downloadFile } from '../../api/knowledge-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { Button } from '../../components/ui/button.tsx'
import * as Dialog from '../../components/ui/dialog.tsx'
import * as Field from '../../components/ui/field.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { LinearProgress } from '../../components/ui/progress.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'
import { ConfirmDialog } from '../shared/confirm-dialog.tsx'
import { formatBytes, formatExact, formatRelative } from '../shared/format.ts'
import { createRepositoryLogic, type RepositoryLogic } from './repository-actors.ts'

const STATUS_LABELS = {
  queued: 'Queued',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
} as const

const toolbar = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center', mb: '3' })
const searchBox = css({ flex: { base: '1 1 100%', md: '1 1 16rem' }, minW: '0', w: 'auto' })
const selectClass = css({
  w: 'auto',
  flex: { base: '1 1 8rem', md: '0 0 12rem' },
  appearance: 'auto',
  cursor: 'pointer',
  bg: 'bg.default',
})
const drop = css({
  display: 'flex',
  flexDirection: { base: 'column', sm: 'row' },
  alignItems: 'center',
  gap: '4',
  p: '5',
  mb: '4',
  borderWidth: '2px',
  borderStyle: 'dashed',
  borderColor: 'border.default',
  borderRadius: 'xl',
  bg: 'bg.default',
  transition: 'background 0.15s, border-color 0.15s',
  '&[data-over]': { borderColor: 'colorPalette.default', bg: 'colorPalette.a2' },
})
const dropText = css({
  flex: '1',
  textStyle: 'sm',
  color: 'fg.muted',
  textAlign: { base: 'center', sm: 'left' },
})
const dropTitle = css({ fontWeight: 'semibold', color: 'fg.default', textStyle: 'md' })
const queueList = css({ display: 'flex', flexDirection: 'column', gap: '2', mb: '4' })
const queueRow = css({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gap: '1 3',
  alignItems: 'center',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
})
const tableWrap = css({
  overflowX: 'auto',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
})
const table = css({
  w: 'full',
  borderCollapse: 'collapse',
  textStyle: 'sm',
  '& th': {
    textAlign: 'left',
    fontWeight: 'medium',
    color: 'fg.muted',
    px: '3',
    py: '2.5',
    borderBottomWidth: '1px',
    borderColor: 'border.subtle',
    whiteSpace: 'nowrap',
  },
  '& td': {
    px: '3',
    py: '2.5',
    borderBottomWidth: '1px',
    borderColor: 'border.subtle',
    verticalAlign: 'middle',
  },
  '& tr:last-child td': { borderBottomWidth: '0' },
})
const wide = css({ display: { base: 'none', md: 'table-cell' } })
const nameCell = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  minW: '10rem',
  maxW: '22rem',
})
const nameText = css({ truncate: true, fontWeight: 'medium' })
const muted = css({ color: 'fg.muted', whiteSpace: 'nowrap' })
const chips = css({ display: 'flex', flexWrap: 'wrap', gap: '1' })
const chip = css({
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  bg: 'gray.a3',
  textStyle: 'xs',
  whiteSpace: 'nowrap',
})
const badge = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  textStyle: 'xs',
  fontWeight: 'medium',
  whiteSpace: 'nowrap',
  '&[data-status=ready]': { bg: 'green.a3', color: 'green.text' },
  '&[data-status=failed]': { bg: 'red.a3', color: 'red.text' },
  '&[data-status=queued], &[data-status=processing], &[data-status=uploading], &[data-status=waiting]':
    { bg: 'colorPalette.a3', color: 'colorPalette.text' },
})
const errorLine = css({ textStyle: 'xs', color: 'fg.error', mt: '1', maxW: '18rem' })
const pager = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '3',
  mt: '3',
  textStyle: 'sm',
  color: 'fg.muted',
})
const usage = css({ textStyle: 'sm', color: 'fg.muted', whiteSpace: 'nowrap' })
const headerActions = css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })
const dialogContent = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
  p: '6',
  w: { base: 'calc(100vw - 2rem)', sm: 'md' },
})
const dialogActions = css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })
const alert = css({
  p: '3',
  borderRadius: 'l2',
  bg: 'red.a2',
  color: 'fg.error',
  textStyle: 'sm',
  borderWidth: '1px',
  borderColor: 'red.a6',
})
const checkbox = css({
  w: '4',
  h: '4',
  cursor: 'pointer',
  accentColor: 'var(--colors-color-palette-default)',
})

const kindIcon = (kind: FileKind) =>
  kind === 'xlsx' || kind === 'csv' ? FileSpreadsheet : kind === 'html' ? Globe : FileText

function StatusBadge(props: {
  status: RepositoryFile['status'] | QueueItem['status']
  progress: number
}) {
  const label =
    props.status === 'waiting'
      ? 'Waiting'
      : props.status === 'uploading'
        ? 'Uploading'
        : STATUS_LABELS[props.status]
  return (
    <span className={badge} data-status={props.status}>
      {(props.status === 'processing' || props.status === 'uploading') && <Spinner size="sm" />}
      {label}
      {(props.status === 'processing' || props.status === 'uploading') && props.progress > 0
        ? ` ${props.progress}%`
        : ''}
    </span>
  )
}

function useStats(refreshKey: number) {
  const [stats, setStats] = useState<FileStats | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey is the signal to reload
  useEffect(() => {
    let live = true
    api.get(paths.account.fileStats, fileStatsSchema).then(
      (value) => live && setStats(value),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [refreshKey])
  return stats
}

const defaultLogic = createRepositoryLogic()

export default function RepositoryPage({ logic = defaultLogic }: { logic?: RepositoryLogic }) {
  const list = useActorRef(logic.list)
  const queue = useActorRef(logic.queue, { input: { maxUploadMb: 50 } })
  const addUrl = useActorRef(logic.addUrl)
  const toaster = ToasterContext.useActorRef()
  const files = useSelector(list, selectFiles)
  const count = useSelector(list, selectCount)
  const query = useSelector(list, selectQuery)
  const selected = useSelector(list, selectSelected)
  const pendingDelete = useSelector(list, selectPendingDelete)
  const confirming = useSelector(list, selectIsConfirming)
  const deleting = useSelector(list, (s) => s.matches('deleting'))
  const loading = useSelector(list, selectIsLoading)
  const busy = useSelector(list, selectIsBusy)
  const listError = useSelector(list, selectError)
  const items = useSelector(queue, selectItems)
  const hasFinished = useSelector(queue, selectHasFinished)
  const [changes, setChanges] = useState(0)
  const stats = useStats(changes + count)
  const [over, setOver] = useState(false)
  const [tagging, setTagging] = useState<RepositoryFile | null>(null)
  const picker = useRef<HTMLInputElement>(null)
  const searchId = useId()

  useEffect(() => {
    const subs = [
      queue.on('changed', () => {
        list.send({ type: 'refresh' })
        setChanges((n) => n + 1)
      }),
      list.on('deleted', (event) => {
        setChanges((n) => n + 1)
        toaster.send({
          type: 'toast.show',
          toast: {
            type: 'success',
            title: event.count === 1 ? 'File deleted' : `${event.count} files deleted`,
          },
        })
      }),
      list.on('failed', (event) =>
        toaster.send({ type: 'toast.show', toast: { type: 'error', title: event.error } }),
      ),
      addUrl.on('added', () => {
        list.send({ type: 'refresh' })
        toaster.send({
          type: 'toast.show',
          toast: { type: 'success', title: 'Address added: Quire is fetching it' },
        })
      }),
    ]
    return () => {
      for (const sub of subs) sub.unsubscribe()
    }
  }, [queue, list, addUrl, toaster])

  const addFiles = (picked: FileList | null) => {
    if (picked?.length) queue.send({ type: 'files.add', files: Array.from(picked) })
  }
  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setOver(false)
    addFiles(event.dataTransfer.files)
  }
  const pages = Math.max(1, Math.ceil(count / query.page_size))
  const filtered = Boolean(query.q || query.kind || query.status || query.tag)
  const allSelected = files.length > 0 && files.every((file) => selected.includes(file.id))

  return (
    <>
      <PageHeader
        title="Repository"
        description="Your documents: policies, reports and evidence that answers are drawn from. Quire reads each one and keeps where every passage came from."
        actions={
          <div className={headerActions}>
            {stats && (
              <span className={usage}>
                {stats.total.count}{' '}
                {stats.max_repository === null ? 'files' : `of ${stats.max_repository} files`} ·{' '}
                {formatBytes(stats.total.bytes)}
              </span>
            )}
            <Button variant="outline" onClick={() => addUrl.send({ type: 'open' })}>
              <Link2 /> Add by URL
            </Button>
          </div>
        }
      />

      <section
        className={drop}
        data-over={over ? '' : undefined}
        onDragOver={(event) => {
          event.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        aria-label="Upload files"
      >
        <Upload aria-hidden />
        <div className={dropText}>
          <div className={dropTitle}>Drop files here to upload</div>
          PDF, Word, Excel, CSV, text, Markdown or HTML, up to {DEFAULT_MAX_UPLOAD_MB} MB each.
        </div>
        <Button onClick={() => picker.current?.click()}>Choose files</Button>
        <input
          ref={picker}
          type="file"
          multiple
          accept={FILE_ACCEPT}
          hidden
          data-testid="file-picker"
          onChange={(event) => {
            addFiles(event.target.files)
            event.target.value = ''
          }}
        />
      </section>

      {items.length > 0 && (
        <section className={queueList} aria-label="Uploads">
          {items.map((item) => (
            <div key={item.key} className={queueRow} data-testid="upload-row">
              <div className={css({ minW: '0' })}>
                <div className={nameText}>{item.name}</div>
                <div className={muted}>{formatBytes(item.size)}</div>
                {item.error && <div className={errorLine}>{item.error}</div>}
              </div>
              <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
                <StatusBadge status={item.status} progress={item.progress} />
                {item.status === 'failed' && item.fileId === null && (
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={() => queue.send({ type: 'retry', key: item.key })}
                  >
                    Retry
                  </Button>
                )}
              </div>
              {(item.status === 'uploading' || item.status === 'processing') && (
                <div className={css({ gridColumn: '1 / -1' })}>
                  <LinearProgress
                    value={item.progress}
                    size="sm"
                    showValueText={false}
                    aria-label={`${item.name} progress`}
                  />
                </div>
              )}
            </div>
          ))}
          {hasFinished && (
            <div>
              <Button
                size="xs"
                variant="ghost"
                onClick={() => queue.send({ type: 'clear.finished' })}
              >
                Clear finished
              </Button>
            </div>
          )}
        </section>
      )}

      <div className={toolbar}>
        <input
          id={searchId}
          className={cx(input({ size: 'md' }), searchBox)}
          type="search"
          placeholder="Search by name or address"
          aria-label="Search files"
          value={query.q}
          onChange={(event) => list.send({ type: 'search.change', q: event.target.value })}
        />
        <select
          className={cx(input({ size: 'md' }), selectClass)}
          aria-label="Type"
          value={query.kind}
          onChange={(event) =>
            list.send({
              type: 'filter.change',
              filter: { kind: event.target.value as FileKind | '' },
            })
          }
        >
          <option value="">All types</option>
          {FILE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {FILE_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
        <select
          className={cx(input({ size: 'md' }), selectClass)}
          aria-label="Status"
          value={query.status}
          onChange={(event) =>
            list.send({
              type: 'filter.change',
              filter: { status: event.target.value as RepositoryFile['status'] | '' },
            })
          }
        >
          <option value="">Any status</option>
          {FILE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </select>
        {query.tag && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => list.send({ type: 'filter.change', filter: { tag: '' } })}
          >
            Tag: {query.tag} ✕
          </Button>
        )}
        {selected.length > 0 && (
          <Button
            size="md"
            variant="outline"
            className={css({ colorPalette: 'red' })}
            onClick={() => list.send({ type: 'delete.request', ids: selected })}
          >
            <Trash2 /> Delete selected ({selected.length})
          </Button>
        )}
      </div>

      {listError ? (
        <div className={alert} role="alert">
          {listError}{' '}
          <Button size="xs" variant="outline" onClick={() => list.send({ type: 'refresh' })}>
            Try again
          </Button>
        </div>
      ) : loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
          <Spinner />
        </div>
      ) : files.length === 0 && !filtered ? (
        <EmptyState icon={FolderOpen} title="No documents yet">
          Upload what answers security questions for you: policies, SOC 2 and ISO reports, pen-test
          summaries, architecture notes and questionnaires you have already completed. PDF, Word,
          Excel, CSV, text and Markdown all work, or add a web page such as your trust center by
          URL.
        </EmptyState>
      ) : files.length === 0 ? (
        <EmptyState icon={FolderOpen} title="No files match">
          Try another search or clear the filters.
        </EmptyState>
      ) : (
        <>
          <div className={tableWrap}>
            <table className={table} aria-busy={busy || undefined}>
              <thead>
                <tr>
                  <th>
                    <input
                      type="checkbox"
                      className={checkbox}
                      aria-label="Select all files"
                      checked={allSelected}
                      onChange={() =>
                        list.send({ type: allSelected ? 'select.clear' : 'select.all' })
                      }
                    />
                  </th>
                  <th>Name</th>
                  <th className={wide}>Type</th>
                  <th className={wide}>Size</th>
                  <th className={wide}>Tags</th>
                  <th>Status</th>
                  <th className={wide}>Added</th>
                  <th>
                    <span className={css({ srOnly: true })}>Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {files.map((file) => {
                  const Icon = kindIcon(file.kind)
                  return (
                    <tr key={file.id} data-testid="file-row">
                      <td>
                        <input
                          type="checkbox"
                          className={checkbox}
                          aria-label={`Select ${file.name}`}
                          checked={selected.includes(file.id)}
                          onChange={() => list.send({ type: 'select.toggle', id: file.id })}
                        />
                      </td>
                      <td>
                        <div className={nameCell}>
                          <Icon
                            size={16}
                            aria-hidden
                            className={css({ flexShrink: '0', color: 'fg.muted' })}
                          />
                          <span className={nameText} title={file.source_url ?? file.name}>
                            {file.name}
                          </span>
                        </div>
                      </td>
                      <td className={cx(wide, muted)}>{FILE_KIND_LABELS[file.kind]}</td>
                      <td className={cx(wide, muted)}>
                        {file.size ? formatBytes(file.size) : '—'}
                      </td>
                      <td className={wide}>
                        <div className={chips}>
                          {file.tags.map((tag) => (
                            <button
                              key={tag}
                              type="button"
                              className={cx(chip, css({ cursor: 'pointer' }))}
                              onClick={() => list.send({ type: 'filter.change', filter: { tag } })}
                            >
                              {tag}
                            </button>
                          ))}
                        </div>
                      </td>
                      <td>
                        <StatusBadge status={file.status} progress={file.progress} />
                        {file.status === 'failed' && file.error && (
                          <div className={errorLine}>{file.error}</div>
                        )}
                      </td>
                      <td className={cx(wide, muted)} title={formatExact(file.created_at)}>
                        {formatRelative(file.created_at)}
                        {file.added_by ? ` · ${file.added_by.name}` : ''}
                      </td>
                      <td>
                        <Menu.Root positioning={{ placement: 'bottom-end' }}>
                          <Menu.Trigger asChild>
                            <IconButton
                              variant="ghost"
                              size="sm"
                              aria-label={`Actions for ${file.name}`}
                            >
                              <MoreHorizontal />
                            </IconButton>
                          </Menu.Trigger>
                          <Portal>
                            <Menu.Positioner>
                              <Menu.Content>
                                <Menu.Item
                                  value="download"
                                  onClick={() =>
                                    downloadFile(file.id, file.name).catch((error: Error) =>
                                      toaster.send({
                                        type: 'toast.show',
                                        toast: { type: 'error', title: error.message },
                                      }),
                                    )
                                  }
                                >
                                  <Download /> Download
                                </Menu.Item>
                                <Menu.Item
                                  value="reprocess"
                                  onClick={() =>
                                    list.send({
                                      type: 'action',
                                      action: { kind: 'reprocess', id: file.id },
                                    })
                                  }
                                >
                                  <RefreshCw /> Reprocess
                                </Menu.Item>
                                <Menu.Item value="tags" onClick={() => setTagging(file)}>
                                  <Tags /> Edit tags
                                </Menu.Item>
                                <Menu.Item
                                  value="delete"
                                  onClick={() =>
                                    list.send({ type: 'delete.request', ids: [file.id] })
                                  }
                                >
                                  <Trash2 /> Delete
                                </Menu.Item>
                              </Menu.Content>
                            </Menu.Positioner>
                          </Portal>
                        </Menu.Root>
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
          <div className={pager}>
            <span>
              {count} {count === 1 ? 'file' : 'files'}
            </span>
            {pages > 1 && (
              <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={query.page <= 1}
                  onClick={() => list.send({ type: 'page.change', page: query.page - 1 })}
                >
                  Previous
                </Button>
                <span>
                  Page {query.page} of {pages}
                </span>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={query.page >= pages}
                  onClick={() => list.send({ type: 'page.change', page: query.page + 1 })}
                >
                  Next
                </Button>
              </div>
            )}
          </div>
        </>
      )}

      <ConfirmDialog
        open={confirming}
        title={
          pendingDelete.length === 1 ? 'Delete this file?' : `Delete ${pendingDelete.length} files?`
        }
        description="The documents and everything Quire read from them are removed. Answers already written keep their text."
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={() => list.send({ type: 'delete.confirm' })}
        onCancel={() => list.send({ type: 'delete.cancel' })}
      />
      <AddByUrlDialog actor={addUrl} />
      <TagsDialog
        file={tagging}
        onClose={() => setTagging(null)}
        onSave={(tags) => {
          if (tagging) list.send({ type: 'action', action: { kind: 'tags', id: tagging.id, tags } })
          setTagging(null)
        }}
      />
    </>
  )
}

function AddByUrlDialog({
  actor,
}: {
  actor: ReturnType<typeof useActorRef<RepositoryLogic['addUrl']>>
}) {
  const open = useSelector(actor, (s) => !s.matches('closed'))
  const submitting = useSelector(actor, (s) => s.hasTag('loading'))
  const { url, tags, error } = useSelector(actor, (s) => s.context)
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && actor.send({ type: 'close' })}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content className={dialogContent}>
            <Dialog.Title>Add a document by URL</Dialog.Title>
            <Dialog.Description>
              A public web page (such as your trust center) or a link to a PDF, Word or Excel file.
              Quire fetches it and reads it like an upload.
            </Dialog.Description>
            <form
              className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
              onSubmit={(event) => {
                event.preventDefault()
                actor.send({ type: 'submit' })
              }}
            >
              <Field.Root invalid={Boolean(error)}>
                <Field.Label>URL</Field.Label>
                <Field.Input
                  type="url"
                  inputMode="url"
                  placeholder="https://example.com/security"
                  value={url}
                  onChange={(event) =>
                    actor.send({ type: 'url.change', value: event.target.value })
                  }
                  autoFocus
                />
                {error && <Field.ErrorText>{error}</Field.ErrorText>}
              </Field.Root>
              <Field.Root>
                <Field.Label>Tags</Field.Label>
                <Field.Input
                  placeholder="Comma-separated, optional"
                  value={tags}
                  onChange={(event) =>
                    actor.send({ type: 'tags.change', value: event.target.value })
                  }
                />
              </Field.Root>
              <div className={dialogActions}>
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => actor.send({ type: 'close' })}
                >
                  Cancel
                </Button>
                <Button type="submit" loading={submitting}>
                  Add
                </Button>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

function TagsDialog(props: {
  file: RepositoryFile | null
  onClose: () => void
  onSave: (tags: string[]) => void
}) {
  const [text, setText] = useState('')
  useEffect(() => setText(props.file?.tags.join(', ') ?? ''), [props.file])
  return (
    <Dialog.Root
      open={props.file !== null}
      onOpenChange={(details) => !details.open && props.onClose()}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content className={dialogContent}>
            <Dialog.Title>Edit tags</Dialog.Title>
            <Dialog.Description>{props.file?.name}</Dialog.Description>
            <Field.Root>
              <Field.Label>Tags</Field.Label>
              <Field.Input
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder="policies, SOC 2"
              />
              <Field.HelperText>Separate tags with commas.</Field.HelperText>
            </Field.Root>
            <div className={dialogActions}>
              <Button variant="outline" onClick={props.onClose}>
                Cancel
              </Button>
              <Button
                onClick={() =>
                  props.onSave(
                    text
                      .split(',')
                      .map((tag) => tag.trim())
                      .filter(Boolean),
                  )
                }
              >
                Save tags
              </Button>
            </div>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
