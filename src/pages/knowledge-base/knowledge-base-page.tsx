import { useActorRef, useSelector } from '@xstate/react'
import { BookOpen, Database, FileText, Plus, Upload } from 'lucide-react'
import { css } from 'styled-system/css'
import {
  type KnowledgeTab,
  selectTab,
  selectVersion,
} from '../../../machines/knowledge-base/index.ts'
import { downloadFile } from '../../api/knowledge-actors.ts'
import { createKnowledgeLogic, type KnowledgeLogic } from '../../api/knowledge-logic.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { Button } from '../../components/ui/button.tsx'
import { PageHeader } from '../page-header.tsx'
import { ImportDialog } from './import-dialog.tsx'
import { ItemEditorDialog } from './item-editor-dialog.tsx'
import { ItemList } from './item-list.tsx'
import { LibraryHealthPanel } from './library-health.tsx'
import { SearchPanel } from './search-panel.tsx'

const TABS: { kind: KnowledgeTab; label: string }[] = [
  { kind: 'qa', label: 'Q&A' },
  { kind: 'data', label: 'Data' },
  { kind: 'files', label: 'Files' },
]

const tabList = css({
  display: 'flex',
  gap: '1',
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
  mb: '4',
  overflowX: 'auto',
})
const tab = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  px: '3',
  py: '2',
  textStyle: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  mb: '-1px',
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  '&[aria-selected=true]': { color: 'fg.default', borderColor: 'colorPalette.default' },
})

const defaultLogic = createKnowledgeLogic()

export default function KnowledgeBasePage({ logic = defaultLogic }: { logic?: KnowledgeLogic }) {
  const page = useActorRef(logic.page)
  const editor = useActorRef(logic.editor)
  const importer = useActorRef(logic.importer)
  const search = useActorRef(logic.search)
  const health = useActorRef(logic.health)
  const toaster = ToasterContext.useActorRef()
  const kind = useSelector(page, selectTab)
  const version = useSelector(page, selectVersion)

  const changed = () => {
    page.send({ type: 'changed' })
    health.send({ type: 'refresh' })
  }
  useEmitted(
    () => [
      editor.on('saved', () => {
        changed()
        toaster.send({ type: 'toast.show', toast: { type: 'success', title: 'Saved' } })
      }),
      editor.on('deleted', () => {
        changed()
        toaster.send({ type: 'toast.show', toast: { type: 'success', title: 'Deleted' } })
      }),
      importer.on('imported', changed),
    ],
    [page, editor, importer, health, toaster],
  )
  const download = (id: number, name: string) =>
    downloadFile(id, name).catch((error: Error) =>
      toaster.send({ type: 'toast.show', toast: { type: 'error', title: error.message } }),
    )
  const select = (tab: KnowledgeTab) => page.send({ type: 'tab.select', tab })

  return (
    <>
      <PageHeader
        title="Knowledge Base"
        description="Approved answers, facts about your company and the documents Quire reads. Everything here is evidence for the answers it drafts."
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            <Button variant="outline" onClick={() => importer.send({ type: 'open' })}>
              <Upload /> Import Q&A
            </Button>
            <Button
              onClick={() => editor.send({ type: 'create', mode: kind === 'data' ? 'data' : 'qa' })}
            >
              <Plus /> {kind === 'data' ? 'Add data item' : 'Add Q&A'}
            </Button>
          </div>
        }
      />
      <SearchPanel
        actor={search}
        onDownload={download}
        onOpenItem={(result) => {
          if (result.kind === 'qa') select('qa')
          if (result.kind === 'data') select('data')
        }}
      />
      <div className={tabList} role="tablist" aria-label="Knowledge base sections">
        {TABS.map((entry) => (
          <button
            key={entry.kind}
            type="button"
            role="tab"
            className={tab}
            aria-selected={kind === entry.kind}
            onClick={() => select(entry.kind)}
          >
            {entry.kind === 'qa' ? (
              <BookOpen size={16} />
            ) : entry.kind === 'data' ? (
              <Database size={16} />
            ) : (
              <FileText size={16} />
            )}
            {entry.label}
          </button>
        ))}
      </div>
      {kind === 'qa' && (
        <LibraryHealthPanel
          actor={health}
          onDelete={(id) => editor.send({ type: 'delete.request', mode: 'qa', id })}
        />
      )}
      <div role="tabpanel">
        <ItemList
          key={`${kind}-${version}`}
          kind={kind}
          logic={logic}
          editor={editor}
          onDownload={(file) => download(file.id, file.name)}
        />
      </div>
      <ItemEditorDialog actor={editor} />
      <ImportDialog actor={importer} />
    </>
  )
}
