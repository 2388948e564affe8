import { Link } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { Building2, ClipboardList, SearchX, Trash2, Upload, X } from 'lucide-react'
import { useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import { QUESTIONNAIRE_ACCEPT } from '../../../contract/questionnaires.ts'
import { selectCustomers } from '../../../machines/customer-list/index.ts'
import { selectProductNames } from '../../../machines/product-choice/index.ts'
import { questionnaireListView } from '../../../machines/questionnaire-list/index.ts'
import { createQuestionnairesLogic, type QuestionnairesLogic } from '../../api/work-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { DropZone, uploadRow } from '../../components/files/upload-drop.tsx'
import { ProductSelect } from '../../components/product-select.tsx'
import { dataTable, tableWrap, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import { LinearProgress } from '../../components/ui/progress.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'
import { DeleteDialog } from '../shared/confirm-dialog.tsx'
import { ListFilters } from './list-filters.tsx'
import { hideSmall, numeric, QuestionnaireRow as Row } from './questionnaire-row.tsx'
import { UploadWorkFields } from './upload-work.tsx'
import { WorkDialog } from './work-dialog.tsx'

/** A toolbar with room under it. */
const toolbarRow = cx(toolbar, css({ mb: '3' }))
export default function QuestionnairesPage(props: { logic?: QuestionnairesLogic }) {
  const [logic] = useState(() => props.logic ?? createQuestionnairesLogic())
  const list = useActorRef(logic.list, { input: { maxUploadMb: 50 } })
  const work = useActorRef(logic.work)
  const customerList = useActorRef(logic.customers)
  const owners = useActorRef(logic.owners)
  const products = useActorRef(logic.products, { input: {} })
  const productNames = useSelector(products, selectProductNames)
  const toaster = ToasterContext.useActorRef()
  const view = useView(list, questionnaireListView)
  const customers = useSelector(customerList, selectCustomers)
  const picker = useRef<HTMLInputElement>(null)

  useEmitted(
    () => [
      list.on('uploaded', (event) => {
        toaster.send({
          type: 'toast.show',
          toast: { type: 'success', title: `${event.questionnaire.name} uploaded: analysing it` },
        })
      }),
      list.on('deleted', (event) =>
        toaster.send({
          type: 'toast.show',
          toast: {
            type: 'success',
            title:
              event.count === 1 ? 'Questionnaire deleted' : `${event.count} questionnaires deleted`,
          },
        }),
      ),
      list.on('failed', (event) =>
        toaster.send({ type: 'toast.show', toast: { type: 'error', title: event.error } }),
      ),
      work.on('saved', (event) => {
        list.send({ type: 'work.saved', questionnaire: event.questionnaire })
        // a customer named in the dialog may be new: the filter offers it too
        customerList.send({ type: 'refresh' })
        toaster.send({
          type: 'toast.show',
          toast: { type: 'success', title: 'Work details saved' },
        })
      }),
    ],
    [list, work, customerList, toaster],
  )

  const uploadButton = (
    <Button onClick={() => picker.current?.click()}>
      <Upload /> Upload questionnaire
    </Button>
  )

  return (
    <>
      <PageHeader
        description="Upload the questionnaire you were sent; Quire finds every question and where its answer goes."
        actions={
          <div className={toolbar}>
            <Button variant="outline" asChild>
              <Link to="/customers">
                <Building2 /> Customers
              </Link>
            </Button>
            {uploadButton}
          </div>
        }
      />
      <DropZone
        label="Drop questionnaires here"
        accept={QUESTIONNAIRE_ACCEPT}
        testId="questionnaire-picker"
        picker={picker}
        chooseVariant="outline"
        onFiles={(files) => list.send({ type: 'files.add', files })}
        beside={
          <ProductSelect
            choices={products}
            label="Answer for"
            beside
            value={view.uploadProduct}
            onChange={(productId) => list.send({ type: 'product.choose', productId })}
          />
        }
      >
        <strong className={css({ color: 'fg.default' })}>Drop questionnaires here</strong>
        <br />
        Excel (.xlsx), CSV, Word (.docx) or PDF, up to 50 MB each. The file you send back keeps its
        layout.
      </DropZone>

      <UploadWorkFields
        values={view.uploadWork}
        customers={customers}
        owners={owners}
        onChange={(field, value) => list.send({ type: 'uploadWork.change', field, value })}
      />

      {view.uploadRows.map((row) => (
        <div key={row.key} className={cx(uploadRow, css({ mb: '2' }))} data-testid="upload-row">
          <div className={css({ minW: '0' })}>
            <p className={css({ fontWeight: 'medium', overflowWrap: 'anywhere' })}>{row.name}</p>
            {row.progress ? (
              <LinearProgress value={row.progress.value} label={row.progress.label} size="sm" />
            ) : (
              <p className={css({ color: 'fg.error', textStyle: 'xs' })} role="alert">
                {row.error}
              </p>
            )}
          </div>
          {row.error !== null && (
            <IconButton
              size="sm"
              variant="ghost"
              aria-label={`Dismiss ${row.name}`}
              onClick={() => list.send({ type: 'upload.dismiss', key: row.key })}
            >
              <X />
            </IconButton>
          )}
        </div>
      ))}

      {view.error && (
        <div className={cx(toolbarRow, css({ color: 'fg.error' }))} role="alert">
          {view.error}
          <Button size="sm" variant="outline" onClick={() => list.send({ type: 'retry' })}>
            Try again
          </Button>
        </div>
      )}

      {view.content === 'loading' ? (
        <div className={flex({ gap: '2', color: 'fg.muted' })}>
          <Spinner size="sm" /> Loading questionnaires...
        </div>
      ) : view.content === 'empty' ? (
        <EmptyState icon={ClipboardList} title="No questionnaires yet" action={uploadButton}>
          Upload a security questionnaire (CAIQ, HECVAT, SIG or your customer's own spreadsheet).
          Quire reads every tab, drafts the answers from your knowledge base and hands back the same
          file, filled.
        </EmptyState>
      ) : (
        view.content !== 'none' && (
          <>
            <ListFilters
              filters={view.filters}
              filtered={view.filtered}
              customers={customers}
              products={products}
              onChange={(filters) => list.send({ type: 'filter.set', filters })}
              onClear={() => list.send({ type: 'filter.clear' })}
            >
              <Button
                size="sm"
                variant="outline"
                disabled={view.deleteDisabled}
                className={css({ colorPalette: 'red' })}
                onClick={() => list.send({ type: 'delete.request', ids: view.selected })}
              >
                <Trash2 /> {view.deleteLabel}
              </Button>
            </ListFilters>
            {view.content === 'noMatch' ? (
              <EmptyState
                icon={SearchX}
                title="No questionnaire matches these filters"
                action={
                  <Button variant="outline" onClick={() => list.send({ type: 'filter.clear' })}>
                    Clear filters
                  </Button>
                }
              >
                Change a filter, or clear them all to see every questionnaire.
              </EmptyState>
            ) : (
              <div className={tableWrap}>
                <table className={dataTable}>
                  <thead>
                    <tr>
                      <th>
                        <input
                          type="checkbox"
                          aria-label="Select all"
                          checked={view.allSelected}
                          onChange={() => list.send({ type: 'toggle.all' })}
                        />
                      </th>
                      <th>Name</th>
                      <th>Status</th>
                      <th className={hideSmall}>Work</th>
                      <th className={hideSmall}>Due</th>
                      <th className={hideSmall}>Progress</th>
                      <th className={cx(numeric, hideSmall)} data-align="end">
                        Questions
                      </th>
                      <th className={cx(numeric, hideSmall)} data-align="end">
                        Answered
                      </th>
                      <th className={cx(numeric, hideSmall)} data-align="end">
                        Approved
                      </th>
                      <th className={hideSmall}>Created</th>
                      <th>
                        <span className={css({ srOnly: true })}>Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {view.rows.map((row) => (
                      <Row
                        key={row.item.id}
                        row={row}
                        onToggle={() => list.send({ type: 'toggle', id: row.item.id })}
                        onDelete={() => list.send({ type: 'delete.request', ids: [row.item.id] })}
                        onWork={() => work.send({ type: 'open', questionnaire: row.item })}
                        product={productNames.get(row.item.product_id ?? 0)}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )
      )}

      <WorkDialog actor={work} owners={owners} customers={customers} />
      <DeleteDialog
        list={list}
        view={view}
        noun="questionnaire"
        description="Their questions, answers, history and filled files are deleted. This cannot be undone."
      />
    </>
  )
}
