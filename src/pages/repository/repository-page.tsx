import { useActorRef, useSelector } from '@xstate/react'
import {
  Download,
  FilePlus2,
  FolderOpen,
  History,
  Link2,
  RefreshCw,
  Tags,
  Trash2,
} from 'lucide-react'
import { useId, useRef } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import {
  FILE_ACCEPT,
  FILE_KIND_LABELS,
  FILE_KINDS,
  FILE_STATUSES,
  type FileKind,
  type RepositoryFile,
} from '../../../contract/knowledge.ts'
import { fileListContent, fileListView, fileRow } from '../../../machines/file-list/index.ts'
import { selectStats } from '../../../machines/file-stats/index.ts'
import { selectProductNames } from '../../../machines/product-choice/index.ts'
import { selectInFlight } from '../../../machines/upload-queue/index.ts'
import { downloadFile, downloadFileVersion } from '../../api/knowledge-actors.ts'
import { createRepositoryLogic, type RepositoryLogic } from '../../api/repository-logic.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { AddByUrlDialog, TagsDialog } from '../../components/files/file-dialogs.tsx'
import { FileHistoryDialog } from '../../components/files/file-history-dialog.tsx'
import { FileTable } from '../../components/files/file-table.tsx'
import { Pager } from '../../components/files/pager.tsx'
import { STATUS_LABELS } from '../../components/files/status-badge.tsx'
import { UploadDrop } from '../../components/files/upload-drop.tsx'
import { ProductFilter, ProductSelect } from '../../components/product-select.tsx'
import { RetryAlert, RowActions } from '../../components/row-actions.tsx'
import { toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { FilePicker } from '../../components/ui/file-upload.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { formatBytes } from '../../lib/format.ts'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'
import { DeleteDialog } from '../shared/confirm-dialog.tsx'

/** The search box and the filters, with room under them. */
const filterBar = cx(toolbar, css({ mb: '3' }))
const searchBox = css({ flex: { base: '1 1 100%', md: '1 1 16rem' }, minW: '0', w: 'auto' })
const selectClass = css({ w: 'auto', flex: { base: '1 1 8rem', md: '0 0 12rem' } })
const KIND_OPTIONS = [
  { value: '', label: 'All types' },
  ...FILE_KINDS.map((kind) => ({ value: kind, label: FILE_KIND_LABELS[kind] })),
]
const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...FILE_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
]
const usage = css({ textStyle: 'sm', color: 'fg.muted', whiteSpace: 'nowrap' })

const defaultLogic = createRepositoryLogic()

export default function RepositoryPage({ logic = defaultLogic }: { logic?: RepositoryLogic }) {
  const list = useActorRef(logic.list)
  const queue = useActorRef(logic.queue, { input: { maxUploadMb: 50 } })
  const addUrl = useActorRef(logic.addUrl)
  const statsRef = useActorRef(logic.stats)
  const versions = useActorRef(logic.versions, { input: { maxUploadMb: 50 } })
  const products = useActorRef(logic.products, { input: {} })
  const uploadProduct = useSelector(queue, (s) => s.context.productId)
  const productNames = useSelector(products, selectProductNames)
  const replacing = useSelector(versions, (s) => s.hasTag('busy'))
  const replacePicker = useRef<HTMLInputElement>(null)
  const toaster = ToasterContext.useActorRef()
  const view = useView(list, fileListView)
  // uploads still in the browser: the table lists them before the files (one list, issue 30)
  const uploads = useSelector(queue, selectInFlight)
  const stats = useSelector(statsRef, selectStats)
  const searchId = useId()

  const toast = (type: 'success' | 'error', title: string) =>
    toaster.send({ type: 'toast.show', toast: { type, title } })
  useEmitted(
    () => [
      queue.on('changed', () => {
        list.send({ type: 'refresh' })
        statsRef.send({ type: 'refresh' })
      }),
      queue.on('versioned', (event) =>
        toast(
          'success',
          event.unchanged
            ? `${event.name} is unchanged: the same as version ${event.version}`
            : `New version ${event.version} of ${event.name}`,
        ),
      ),
      list.on('deleted', (event) => {
        statsRef.send({ type: 'refresh' })
        toast('success', event.count === 1 ? 'File deleted' : `${event.count} files deleted`)
      }),
      list.on('failed', (event) => toast('error', event.error)),
      versions.on('replaced', (event) => {
        list.send({ type: 'refresh' })
        statsRef.send({ type: 'refresh' })
        toast(
          'success',
          event.unchanged
            ? `${event.name} is unchanged: the same as version ${event.version}`
            : `New version ${event.version} of ${event.name}`,
        )
      }),
      versions.on('failed', (event) => toast('error', event.error)),
      addUrl.on('added', () => {
        list.send({ type: 'refresh' })
        statsRef.send({ type: 'refresh' })
        toast('success', 'Address added: Quire is fetching it')
      }),
    ],
    [queue, list, addUrl, statsRef, versions, toaster],
  )

  const content = fileListContent(view, uploads.length)

  const rowActions = (file: RepositoryFile) => (
    <RowActions name={file.name}>
      <Menu.Item
        value="download"
        onClick={() =>
          downloadFile(file.id, file.name).catch((error: Error) => toast('error', error.message))
        }
      >
        <Download /> Download
      </Menu.Item>
      <Menu.Item
        value="replace"
        disabled={fileRow(file, { replacing }).replaceDisabled}
        onClick={() => {
          versions.send({ type: 'replace.choose', file: { id: file.id, name: file.name } })
          replacePicker.current?.click()
        }}
      >
        <FilePlus2 /> Replace…
      </Menu.Item>
      <Menu.Item
        value="history"
        onClick={() =>
          versions.send({ type: 'history.open', file: { id: file.id, name: file.name } })
        }
      >
        <History /> History
      </Menu.Item>
      <Menu.Item
        value="reprocess"
        onClick={() => list.send({ type: 'action', action: { kind: 'reprocess', id: file.id } })}
      >
        <RefreshCw /> Reprocess
      </Menu.Item>
      <Menu.Item value="tags" onClick={() => list.send({ type: 'tags.edit', file })}>
        <Tags /> Edit tags
      </Menu.Item>
      <Menu.Item
        value="delete"
        onClick={() => list.send({ type: 'delete.request', ids: [file.id] })}
      >
        <Trash2 /> Delete
      </Menu.Item>
    </RowActions>
  )

  return (
    <>
      <PageHeader
        description="Your documents: policies, reports and evidence that answers are drawn from. Quire reads each one and keeps where every passage came from."
        actions={
          <div className={toolbar}>
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

      <UploadDrop
        onFiles={(picked) => queue.send({ type: 'files.add', files: picked })}
        beside={
          <ProductSelect
            choices={products}
            label="Speaks for"
            beside
            value={uploadProduct}
            onChange={(productId) => queue.send({ type: 'product.choose', productId })}
          />
        }
      />

      <div className={filterBar}>
        <input
          id={searchId}
          className={cx(input({ size: 'md' }), searchBox)}
          type="search"
          placeholder="Search by name or address"
          aria-label="Search files"
          value={view.query.q}
          onChange={(event) => list.send({ type: 'search.change', q: event.target.value })}
        />
        <SimpleSelect
          label="Type"
          hideLabel
          size="md"
          className={selectClass}
          options={KIND_OPTIONS}
          value={view.query.kind}
          onChange={(value) =>
            list.send({ type: 'filter.change', filter: { kind: value as FileKind | '' } })
          }
        />
        <SimpleSelect
          label="Status"
          hideLabel
          size="md"
          className={selectClass}
          options={STATUS_OPTIONS}
          value={view.query.status}
          onChange={(value) =>
            list.send({
              type: 'filter.change',
              filter: { status: value as RepositoryFile['status'] | '' },
            })
          }
        />
        <ProductFilter
          choices={products}
          className={selectClass}
          value={view.query.product}
          onChange={(product) => list.send({ type: 'filter.change', filter: { product } })}
        />
        {view.query.tag && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => list.send({ type: 'filter.change', filter: { tag: '' } })}
          >
            Tag: {view.query.tag} ✕
          </Button>
        )}
        {view.deleteSelectedLabel && (
          <Button
            size="md"
            variant="outline"
            className={css({ colorPalette: 'red' })}
            onClick={() => list.send({ type: 'delete.request', ids: view.selected })}
          >
            <Trash2 /> {view.deleteSelectedLabel}
          </Button>
        )}
      </div>

      {content === 'error' ? (
        <RetryAlert error={view.listError ?? ''} onRetry={() => list.send({ type: 'refresh' })} />
      ) : content === 'loading' ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
          <Spinner />
        </div>
      ) : content === 'empty' ? (
        <EmptyState icon={FolderOpen} title="No documents yet">
          Upload what answers security questions for you: policies, SOC 2 and ISO reports, pen-test
          summaries, architecture notes and questionnaires you have already completed. PDF, Word,
          Excel, CSV, text and Markdown all work, or add a web page such as your trust center by
          URL.
        </EmptyState>
      ) : content === 'noMatch' ? (
        <EmptyState icon={FolderOpen} title="No files match">
          Try another search or clear the filters.
        </EmptyState>
      ) : (
        <>
          <FileTable
            files={view.files}
            columns={['kind', 'size', 'tags', 'status', 'added']}
            busy={view.busy}
            selection={{
              selected: view.selected,
              onToggle: (id) => list.send({ type: 'select.toggle', id }),
              onToggleAll: (all) => list.send({ type: all ? 'select.all' : 'select.clear' }),
            }}
            onTag={(tag) => list.send({ type: 'filter.change', filter: { tag } })}
            actions={rowActions}
            productNames={productNames}
            uploads={{
              items: uploads,
              onRetry: (key) => queue.send({ type: 'retry', key }),
              onRemove: (key) => queue.send({ type: 'remove', key }),
            }}
          />
          <Pager
            total={view.pagerTotal}
            page={view.query.page}
            pages={view.pages}
            position={view.pagerPosition}
            onPage={(page) => list.send({ type: 'page.change', page })}
          />
        </>
      )}

      <DeleteDialog
        list={list}
        view={view}
        noun="file"
        description="The documents and everything Quire read from them are removed. Answers already written keep their text."
      />
      <AddByUrlDialog actor={addUrl} />
      <FileHistoryDialog
        actor={versions}
        onDownload={(id, version) =>
          downloadFileVersion(id, version.version, version.name).catch((error: Error) =>
            toast('error', error.message),
          )
        }
      />
      <FilePicker
        accept={FILE_ACCEPT}
        testId="replace-picker"
        inputRef={replacePicker}
        onFiles={([picked]) => {
          if (picked) versions.send({ type: 'replace.pick', source: picked })
        }}
      />
      <TagsDialog
        tagging={view.tagging}
        onChange={(text) => list.send({ type: 'tags.change', text })}
        onClose={() => list.send({ type: 'tags.cancel' })}
        onSave={() => list.send({ type: 'tags.save' })}
      />
    </>
  )
}
