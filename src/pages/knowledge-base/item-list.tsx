import { useActorRef } from '@xstate/react'
import { BookOpen, CheckCheck, Database, FileText, Pencil, Trash2 } from 'lucide-react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import { DUE_WINDOW_DAYS, type Freshness } from '../../../contract/freshness.ts'
import type { AnsweredRow, DataItem, QaItem, RepositoryFile } from '../../../contract/knowledge.ts'
import type { itemEditorMachine } from '../../../machines/item-editor/index.ts'
import { type ItemListKind, itemListView } from '../../../machines/item-list/index.ts'
import { libraryReviewView, qaRow } from '../../../machines/library-review/index.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import type { KnowledgeLogic } from '../../api/knowledge-logic.ts'
import { SessionContext } from '../../app/session.tsx'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { FileTable } from '../../components/files/file-table.tsx'
import { Pager } from '../../components/files/pager.tsx'
import { type ProductChoiceRef, ProductFilter } from '../../components/product-select.tsx'
import { RetryAlert, RowActions } from '../../components/row-actions.tsx'
import { Button } from '../../components/ui/button.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { EmptyState } from '../empty-state.tsx'
import { FreshnessFilters } from './freshness-filters.tsx'
import { ItemFacts, itemRow, QaRow, rowMeta, rowText, rowTitle } from './qa-row.tsx'

const productFilter = css({ w: { base: 'full', sm: '14rem' } })
const list = stack({ gap: '2' })

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
 * One section of the Knowledge Base: Q&A items (filtered by freshness and owner, or as the review
 * queue: the caller's due and stale answers), data items, the files read so far, or the rows of
 * completed questionnaires in the repository (read-only: their file is their source).
 */
export function ItemList(props: {
  kind: ItemListKind
  queue?: boolean
  logic: KnowledgeLogic
  editor: ActorRefFrom<typeof itemEditorMachine>
  onDownload: (file: { id: number; name: string }) => void
  /** The freshness the Q&A list starts filtered by (library health's counts open it so). */
  freshness?: Freshness | null
  /** An answer was marked reviewed (library health counts it again). */
  onReviewed?: () => void
  /** One entry by its id (a chat's citation opens it). */
  only?: number | null
  /** The empty list's words when what else exists changes them (issue 30). */
  empty?: { title: string; text: string }
  /** The organisation's products, to filter Q&A items by (issue 38), and their names by id. */
  products?: ProductChoiceRef
  productNames?: Map<number, string>
}) {
  const actor = useActorRef(props.logic.list, {
    input: { kind: props.kind, queue: props.queue, freshness: props.freshness, id: props.only },
  })
  const review = useActorRef(props.logic.review)
  const toaster = ToasterContext.useActorRef()
  const view = useView(actor, itemListView)
  const reviewing = useView(review, libraryReviewView)
  const user = SessionContext.useSelector(selectProfile)?.user ?? null
  const { onReviewed } = props
  useEmitted(
    () => [
      review.on('reviewed', (event) => {
        actor.send({ type: 'item.reviewed', item: event.item })
        toaster.send({
          type: 'toast.show',
          toast: { type: 'success', title: 'Marked reviewed', description: event.item.question },
        })
        onReviewed?.()
      }),
      review.on('failed', (event) =>
        toaster.send({ type: 'toast.show', toast: { type: 'error', title: event.error } }),
      ),
    ],
    [actor, review, toaster, onReviewed],
  )
  const pages = Math.max(1, Math.ceil(view.count / view.query.page_size))
  const { editor } = props
  const noun = props.queue ? 'answers to review' : NOUNS[props.kind]
  return (
    <>
      {props.kind === 'qa' && !props.queue && (
        <FreshnessFilters
          filters={view.query}
          onChange={(filters) => actor.send({ type: 'filter.change', filters })}
        >
          {props.products && (
            <ProductFilter
              choices={props.products}
              className={productFilter}
              value={view.query.product === null ? '' : String(view.query.product)}
              onChange={(value) =>
                actor.send({
                  type: 'filter.change',
                  filters: {
                    product: value === '' ? null : value === 'none' ? 'none' : Number(value),
                  },
                })
              }
            />
          )}
        </FreshnessFilters>
      )}
      {view.error ? (
        <RetryAlert error={view.error} onRetry={() => actor.send({ type: 'refresh' })} />
      ) : view.loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '12' })}>
          <Spinner />
        </div>
      ) : view.items.length === 0 ? (
        props.queue ? (
          <EmptyState icon={CheckCheck} title={view.filtered ? 'Nothing matches' : 'All caught up'}>
            {view.filtered
              ? 'Try other filters.'
              : `None of the answers you own is due for review. Answers fall due ${DUE_WINDOW_DAYS} days before their review cycle ends.`}
          </EmptyState>
        ) : (
          <EmptyState
            icon={props.kind === 'files' ? FileText : props.kind === 'data' ? Database : BookOpen}
            title={view.filtered ? 'Nothing matches' : (props.empty?.title ?? `No ${noun} yet`)}
          >
            {view.filtered ? 'Try other filters.' : (props.empty?.text ?? EMPTY[props.kind])}
          </EmptyState>
        )
      ) : props.kind === 'answered' ? (
        <ul className={list}>
          {(view.items as AnsweredRow[]).map((answered) => (
            <li key={answered.id} className={itemRow} data-testid="answered-row">
              <div className={css({ minW: '0', gridColumn: '1 / -1' })}>
                <div className={rowTitle}>{answered.question}</div>
                <div className={rowText}>
                  {[answered.answer, answered.detail].filter(Boolean).join(' - ')}
                </div>
                <div className={rowMeta}>
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
      ) : props.kind === 'qa' ? (
        <ul className={list}>
          {(view.items as QaItem[]).map((item) => (
            <QaRow
              key={item.id}
              item={item}
              queue={Boolean(props.queue)}
              row={qaRow(item, { user, review: reviewing })}
              onReview={() => review.send({ type: 'confirm', item })}
              onEdit={() => editor.send({ type: 'edit', mode: 'qa', item })}
              onDelete={() => editor.send({ type: 'delete.request', mode: 'qa', id: item.id })}
              product={item.product_id ? props.productNames?.get(item.product_id) : undefined}
            />
          ))}
        </ul>
      ) : (
        <ul className={list}>
          {(view.items as DataItem[]).map((item) => (
            <li key={item.id} className={itemRow} data-testid="kb-item">
              <div className={css({ minW: '0' })}>
                <div className={rowTitle}>{item.title}</div>
                <div className={rowText}>{item.value}</div>
                <div className={rowMeta}>
                  <ItemFacts item={item} />
                </div>
              </div>
              <RowActions name={item.title}>
                <Menu.Item
                  value="edit"
                  onClick={() => editor.send({ type: 'edit', mode: 'data', item })}
                >
                  <Pencil /> Edit
                </Menu.Item>
                <Menu.Item
                  value="delete"
                  onClick={() => editor.send({ type: 'delete.request', mode: 'data', id: item.id })}
                >
                  <Trash2 /> Delete
                </Menu.Item>
              </RowActions>
            </li>
          ))}
        </ul>
      )}
      <Pager
        total={`${view.count} ${props.queue ? (view.count === 1 ? 'answer to review' : noun) : view.count === 1 ? NOUN[props.kind] : noun}`}
        page={view.query.page}
        pages={pages}
        position={`${view.query.page} / ${pages}`}
        onPage={(page) => actor.send({ type: 'page.change', page })}
      />
    </>
  )
}
