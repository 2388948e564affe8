import { useActorRef, useSelector } from '@xstate/react'
import {
  BookOpen,
  ClipboardCheck,
  Database,
  FileText,
  type LucideIcon,
  Plus,
  Upload,
} from 'lucide-react'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { wrap } from 'styled-system/patterns'
import { DUE_WINDOW_DAYS } from '../../../contract/freshness.ts'
import { selectSearching } from '../../../machines/kb-search/index.ts'
import {
  emptyOf,
  type KnowledgeTab,
  selectCounts,
  selectFreshness,
  selectTab,
  selectVersion,
} from '../../../machines/knowledge-base/index.ts'
import { selectProductNames } from '../../../machines/product-choice/index.ts'
import { downloadFile } from '../../api/knowledge-actors.ts'
import { createKnowledgeLogic, type KnowledgeLogic } from '../../api/knowledge-logic.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { TabBar } from '../../components/tab-bar.tsx'
import { Button } from '../../components/ui/button.tsx'
import { PageHeader } from '../page-header.tsx'
import { ImportDialog } from './import-dialog.tsx'
import { ItemEditorDialog } from './item-editor-dialog.tsx'
import { ItemList } from './item-list.tsx'
import { LibraryHealthPanel } from './library-health.tsx'
import { SearchPanel } from './search-panel.tsx'

const TABS: { kind: KnowledgeTab; label: string; icon: LucideIcon }[] = [
  { kind: 'qa', label: 'Q&A', icon: BookOpen },
  { kind: 'review', label: 'Review due', icon: ClipboardCheck },
  { kind: 'data', label: 'Data', icon: Database },
  { kind: 'files', label: 'Files', icon: FileText },
]

// the sections' bar keeps room below it; each section shows its icon before its name
const tabList = css({ mb: '4' })
const tab = css({ display: 'inline-flex', alignItems: 'center', gap: '2' })
// on a phone the four sections fit by their names alone
const tabIcon = css({ display: { base: 'none', sm: 'block' } })

const answeredSection = css({ mt: '8' })
const answeredHeading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const hint = css({ textStyle: 'sm', color: 'fg.muted', mb: '3', maxW: '3xl' })

const defaultLogic = createKnowledgeLogic()

/** The entry a chat's citation opens: `?item=` a Q&A item, `?row=` a completed questionnaire's row. */
type Cited = { kind: 'qa' | 'answered'; id: number } | null
const citedInLink = (): Cited => {
  const search = new URLSearchParams(globalThis.location?.search ?? '')
  for (const [param, kind] of [
    ['item', 'qa'],
    ['row', 'answered'],
  ] as const) {
    const id = Number(search.get(param))
    if (Number.isInteger(id) && id > 0) return { kind, id }
  }
  return null
}

export default function KnowledgeBasePage({ logic = defaultLogic }: { logic?: KnowledgeLogic }) {
  const page = useActorRef(logic.page)
  const editor = useActorRef(logic.editor)
  const importer = useActorRef(logic.importer)
  const search = useActorRef(logic.search)
  const health = useActorRef(logic.health)
  const owners = useActorRef(logic.owners)
  const products = useActorRef(logic.products, { input: {} })
  const productNames = useSelector(products, selectProductNames)
  const toaster = ToasterContext.useActorRef()
  const kind = useSelector(page, selectTab)
  const version = useSelector(page, selectVersion)
  const freshness = useSelector(page, selectFreshness)
  const counts = useSelector(page, selectCounts)
  // one search box (issue 30): while it holds words, its results stand in for the sections
  const searching = useSelector(search, selectSearching)
  const empty = emptyOf(counts)
  const [cited, setCited] = useState(citedInLink)

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
  const select = (tab: KnowledgeTab) => {
    setCited(null)
    page.send({ type: 'tab.select', tab })
  }

  return (
    <>
      <PageHeader
        description="Approved answers, facts about your company and the documents Quire reads. Everything here is evidence for the answers it drafts."
        actions={
          <div className={wrap({ gap: '2' })}>
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
          search.send({ type: 'clear' })
          select(result.kind === 'data' ? 'data' : 'qa')
          if (result.kind === 'qa' && result.item_id) setCited({ kind: 'qa', id: result.item_id })
        }}
      />
      {!searching && (
        <>
          <TabBar
            label="Knowledge base sections"
            className={tabList}
            tabClassName={tab}
            selected={kind}
            onSelect={select}
            tabs={TABS.map((entry) => ({
              id: entry.kind,
              content: (
                <>
                  <entry.icon size={16} className={tabIcon} aria-hidden />
                  {entry.label}
                </>
              ),
            }))}
          />
          {kind === 'qa' && (
            <LibraryHealthPanel
              actor={health}
              onDelete={(id) => editor.send({ type: 'delete.request', mode: 'qa', id })}
              onFreshness={(freshness) => page.send({ type: 'freshness.open', freshness })}
            />
          )}
          <div role="tabpanel">
            {kind === 'review' && (
              <p className={hint}>
                The answers you own that fall stale within {DUE_WINDOW_DAYS} days or already have,
                soonest first. Confirm one that is still true, edit one that changed, or retire one
                you no longer need.
              </p>
            )}
            {cited && kind === 'qa' && (
              <p className={hint}>
                {cited.kind === 'qa'
                  ? 'The Q&A item cited in the chat.'
                  : 'The row of a completed questionnaire cited in the chat.'}{' '}
                <Button size="xs" variant="outline" onClick={() => setCited(null)}>
                  Show all
                </Button>
              </p>
            )}
            {cited?.kind !== 'answered' && (
              <ItemList
                key={`${kind}-${version}-${cited?.id ?? ''}`}
                only={kind === 'qa' ? cited?.id : null}
                kind={kind === 'review' ? 'qa' : kind}
                queue={kind === 'review'}
                freshness={kind === 'qa' ? freshness : null}
                logic={logic}
                editor={editor}
                onDownload={(file) => download(file.id, file.name)}
                onReviewed={() => health.send({ type: 'refresh' })}
                empty={kind === 'qa' && !cited ? empty.qa : undefined}
                products={products}
                productNames={productNames}
              />
            )}
            {kind === 'qa' && cited?.kind !== 'qa' && empty.answered !== 'none' && (
              <section className={answeredSection} aria-labelledby="answered-heading">
                <h2 id="answered-heading" className={answeredHeading}>
                  From completed questionnaires
                </h2>
                {empty.answered === 'hint' ? (
                  <p className={hint} data-testid="answered-none">
                    No completed questionnaires in your Repository yet: upload one and its rows
                    appear here.
                  </p>
                ) : (
                  <>
                    <p className={hint}>
                      The rows of completed questionnaires in your Repository. Quire answers from
                      them as from your Q&A items; replace or delete a file to change them, or add a
                      Q&A item for the same question.
                    </p>
                    <ItemList
                      key={`answered-${version}-${cited?.id ?? ''}`}
                      only={cited?.id}
                      kind="answered"
                      logic={logic}
                      editor={editor}
                      onDownload={(file) => download(file.id, file.name)}
                    />
                  </>
                )}
              </section>
            )}
          </div>
        </>
      )}
      <ItemEditorDialog actor={editor} owners={owners} products={products} />
      <ImportDialog actor={importer} />
    </>
  )
}
