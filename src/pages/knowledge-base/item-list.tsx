import { useActorRef } from '@xstate/react'
import { BookOpen, Database, FileText, Pencil, Trash2 } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { grid, stack, wrap } from 'styled-system/patterns'
import { input } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import type { AnsweredRow, DataItem, QaItem, RepositoryFile } from '../../../contract/knowledge.ts'
import type { itemEditorMachine } from '../../../machines/item-editor/index.ts'
import { type ItemListKind, itemListView } from '../../../machines/item-list/index.ts'
import type { KnowledgeLogic } from '../../api/knowledge-logic.ts'
import { useView } from '../../app/use-view.ts'
import { FileTable } from '../../components/files/file-table.tsx'
import { Pager } from '../../components/files/pager.tsx'
import { RetryAlert, RowActions } from '../../components/row-actions.tsx'
import { chip } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { formatExact, formatRelative } from '../../lib/format.ts'
import { EmptyState } from '../empty-state.tsx'

const toolbar = wrap({ gap: '2', mb: '3' })
const filterInput = css({ flex: '1 1 14rem', minW: '0' })
const list = stack({ gap: '2' })
const row = grid({
  gridTemplateColumns: '1fr auto',
  gap: '1 3',
  p: '4',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
})
const rowTitle = css({ fontWeight: 'semibold', textStyle: 'sm' })
const rowText = css({ textStyle: 'sm', color: 'fg.muted', lineClamp: '3', whiteSpace: 'pre-line' })
const valueBadge = css({
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
  textStyle: 'xs',
  fontWeight: 'semibold',
})
const meta = wrap({ gap: '1.5', align: 'center', mt: '1.5', textStyle: 'xs', color: 'fg.muted' })

const fileLink = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  color: 'colorPalette.text',
  cursor: 'pointer',
  overflowWrap: 'anywhere',
  textAlign: 'start',
  _hover: { textDecoration: 'underline' },
})

const NOUNS: Record<ItemListKind, string> = {
  qa: 'Q&A items',
  data: 'data items',
  files: 'files',
  answered: 'rows of completed questionnaires',
}
const NOUN: Record<ItemListKind, string> = {
  qa: 'Q&A item',
  data: 'data item',
  files: 'file',
  answered: 'row of a completed questionnaire',
}
const EMPTY: Record<ItemListKind, string> = {
  qa: 'Add answers you have approved before, or import a completed questionnaire (CSV or Excel) to turn its rows into reusable answers.',
  data: 'Add facts Quire should know: your legal name, data-centre regions, retention periods, certifications.',
  files:
    'Files appear here once the repository has read them. Upload documents on the Repository page.',
  answered:
    'Completed questionnaires you upload to the Repository appear here row by row: Quire answers from them as from your Q&A items.',
}

/**
 * One section of the Knowledge Base: Q&A items, data items, the files read so far, or the rows of
 * completed questionnaires in the repository (read-only: their file is their source).
 */
export function ItemList(props: {
  kind: ItemListKind
  logic: KnowledgeLogic
  editor: ActorRefFrom<typeof itemEditorMachine>
  onDownload: (file: { id: number; name: string }) => void
}) {
  const actor = useActorRef(props.logic.list, { input: { kind: props.kind } })
  const view = useView(actor, itemListView)
  const pages = Math.max(1, Math.ceil(view.count / view.query.page_size))
  const { editor } = props
  const noun = NOUNS[props.kind]
  return (
    <>
      <div className={toolbar}>
        <input
          type="search"
          className={cx(input({ size: 'md' }), filterInput)}
          placeholder={`Filter ${noun}`}
          aria-label={`Filter ${noun}`}
          value={view.query.q}
          onChange={(event) => actor.send({ type: 'search.change', q: event.target.value })}
        />
      </div>
      {view.error ? (
        <RetryAlert error={view.error} onRetry={() => actor.send({ type: 'refresh' })} />
      ) : view.loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '12' })}>
          <Spinner />
        </div>
      ) : view.items.length === 0 ? (
        <EmptyState
          icon={props.kind === 'files' ? FileText : props.kind === 'data' ? Database : BookOpen}
          title={view.query.q ? 'Nothing matches' : `No ${noun} yet`}
        >
          {view.query.q ? 'Try other words.' : EMPTY[props.kind]}
        </EmptyState>
      ) : props.kind === 'answered' ? (
        <ul className={list}>
          {(view.items as AnsweredRow[]).map((answered) => (
            <li key={answered.id} className={row} data-testid="answered-row">
              <div className={css({ minW: '0', gridColumn: '1 / -1' })}>
                <div className={rowTitle}>{answered.question}</div>
                <div className={rowText}>
                  {[answered.answer, answered.detail].filter(Boolean).join(' - ')}
                </div>
                <div className={meta}>
                  <button
                    type="button"
                    className={fileLink}
                    onClick={() =>
                      props.onDownload({ id: answered.file_id, name: answered.file_name })
                    }
                    aria-label={`Download ${answered.file_name}`}
                  >
                    <FileText size={12} /> {answered.file_name}
                  </button>
                  {answered.location?.sheet && <span>{answered.location.sheet}</span>}
                  {answered.location?.row && <span>row {answered.location.row}</span>}
                </div>
              </div>
            </li>
          ))}
        </ul>
      ) : props.kind === 'files' ? (
        <FileTable
          files={view.items as RepositoryFile[]}
          columns={['kind', 'passages', 'tags']}
          actions={(file) => (
            <Button size="sm" variant="outline" onClick={() => props.onDownload(file)}>
              Download
            </Button>
          )}
        />
      ) : (
        <ul className={list}>
          {(view.items as (QaItem | DataItem)[]).map((item) => {
            const isQa = 'question' in item
            return (
              <li key={item.id} className={row} data-testid="kb-item">
                <div className={css({ minW: '0' })}>
                  <div className={rowTitle}>{isQa ? item.question : item.title}</div>
                  <div className={rowText}>{isQa ? item.answer : item.value}</div>
                  <div className={meta}>
                    {isQa && item.dropdown_value && (
                      <span className={valueBadge}>{item.dropdown_value}</span>
                    )}
                    {item.tags.map((tag) => (
                      <span key={tag} className={chip}>
                        {tag}
                      </span>
                    ))}
                    {item.source && <span>{item.source}</span>}
                    <span title={formatExact(item.updated_at)}>
                      updated {formatRelative(item.updated_at)}
                    </span>
                  </div>
                </div>
                <RowActions name={isQa ? item.question : item.title}>
                  <Menu.Item
                    value="edit"
                    onClick={() =>
                      isQa
                        ? editor.send({ type: 'edit', mode: 'qa', item })
                        : editor.send({
                            type: 'edit',
                            mode: 'data',
                            item: item as DataItem,
                          })
                    }
                  >
                    <Pencil /> Edit
                  </Menu.Item>
                  <Menu.Item
                    value="delete"
                    onClick={() =>
                      editor.send({
                        type: 'delete.request',
                        mode: isQa ? 'qa' : 'data',
                        id: item.id,
                      })
                    }
                  >
                    <Trash2 /> Delete
                  </Menu.Item>
                </RowActions>
              </li>
            )
          })}
        </ul>
      )}
      <Pager
        total={`${view.count} ${view.count === 1 ? NOUN[props.kind] : noun}`}
        page={view.query.page}
        pages={pages}
        position={`${view.query.page} / ${pages}`}
        onPage={(page) => actor.send({ type: 'page.change', page })}
      />
    </>
  )
}
