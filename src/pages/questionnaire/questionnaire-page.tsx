import { getRouteApi, Link } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { AlertTriangle, ClipboardList } from 'lucide-react'
import { type KeyboardEvent, useCallback, useMemo, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { grid, stack } from 'styled-system/patterns'
import type { AnswerChange, QuestionRow } from '../../../contract/questionnaires.ts'
import { workspacePageView } from '../../../machines/questionnaire-workspace/index.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { AnswerGrid } from '../../components/questionnaire/answer-grid.tsx'
import { type AnswerActorRef, AnswerPanel } from '../../components/questionnaire/answer-panel.tsx'
import { AnswerSheet } from '../../components/questionnaire/answer-sheet.tsx'
import { AssignDialog } from '../../components/questionnaire/assign-dialog.tsx'
import { CarryForwardOffer } from '../../components/questionnaire/carry-forward-offer.tsx'
import { MappingButton } from '../../components/questionnaire/mapping-button.tsx'
import { SectionPreviewDialog } from '../../components/questionnaire/section-preview-dialog.tsx'
import { WorkspaceHeader } from '../../components/questionnaire/workspace-header.tsx'
import { WorkspaceStatus } from '../../components/questionnaire/workspace-status.tsx'
import { WorkspaceTabs } from '../../components/questionnaire/workspace-tabs.tsx'
import { toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { useMediaQuery } from '../../lib/use-media-query.ts'
import { EmptyState } from '../empty-state.tsx'
import { ConfirmDialog } from '../shared/confirm-dialog.tsx'
import {
  CustomInstructionDialog,
  HistoryDrawer,
  LicenseDialog,
  MappingDialog,
} from './workspace-dialogs.tsx'
import {
  createQuestionnaireLogic,
  followCarry,
  followHistory,
  followRevision,
  type QuestionnaireLogic,
  tellOpenComments,
} from './workspace-logic.ts'

const route = getRouteApi('/_app/questionnaire/$id')

const page = stack({ gap: '4', minH: '0' })
const workspace = grid({
  gridTemplateColumns: { base: '1fr', lg: 'minmax(0, 1fr) minmax(22rem, 28rem)' },
  gap: '4',
  h: { base: '60vh', lg: 'calc(100dvh - 19rem)' },
  minH: '24rem',
})
const side = css({
  display: { base: 'none', lg: 'block' },
  overflowY: 'auto',
  p: '4',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
})
const emptyTab = grid({
  placeItems: 'center',
  textAlign: 'center',
  gap: '2',
  p: '8',
  borderWidth: '1px',
  borderStyle: 'dashed',
  borderColor: 'border.default',
  borderRadius: 'l3',
  color: 'fg.muted',
  textStyle: 'sm',
})

export default function QuestionnairePage() {
  const { id } = route.useParams()
  const { question } = route.useSearch()
  if (!id) {
    return (
      <EmptyState icon={ClipboardList} title="No questionnaire selected">
        Open a questionnaire from the <Link to="/questionnaires">Questionnaires</Link> page to
        review its answers.
      </EmptyState>
    )
  }
  return <QuestionnaireWorkspace key={`${id}:${question ?? ''}`} id={id} focus={question} />
}

export function QuestionnaireWorkspace(props: {
  id: number
  /** A question to open at once (from My work or a notification). */
  focus?: number
  logic?: QuestionnaireLogic
}) {
  const [logic] = useState(() => props.logic ?? createQuestionnaireLogic())
  const workspaceRef = useActorRef(logic.workspace, { input: { id: props.id, focus: props.focus } })
  const exportRef = useActorRef(logic.exports, { input: { id: props.id } })
  const carryRef = useActorRef(logic.carry, { input: { id: props.id } })
  const assignRef = useActorRef(logic.assignment, { input: { questionnaireId: props.id } })
  const activityRef = useActorRef(logic.activity, { input: { id: props.id } })
  const sectionRef = useActorRef(logic.sections, { input: { questionnaireId: props.id } })
  const toaster = ToasterContext.useActorRef()
  const view = useView(workspaceRef, workspacePageView)
  const [customOpen, setCustomOpen] = useState(false)
  const answerRef = useRef<AnswerActorRef | null>(null)
  const [deleting, setDeleting] = useState<QuestionRow | null>(null)
  const wide = useMediaQuery('(min-width: 1024px)')
  const [sheetOpen, setSheetOpen] = useState(false)

  const focused = useMemo(
    () => view.rows.find((row) => row.id === view.focusedId) ?? null,
    [view.rows, view.focusedId],
  )
  const mappingTab = view.tabs.find((tab) => tab.name === view.mappingTabName) ?? null
  const currentTab = view.tabs.find((tab) => tab.id === view.tabId) ?? null

  useEmitted(
    () => [
      // a previewed section operation, confirmed: the workspace runs it as one undoable change
      sectionRef.on('confirmed', ({ operation, tabId, instruction }) =>
        workspaceRef.send({ type: 'section.run', operation, tabId, instruction }),
      ),
      workspaceRef.on('operation.failed', (event) =>
        toaster.send({ type: 'toast.show', toast: { type: 'error', title: event.message } }),
      ),
      workspaceRef.on('operation.done', (event) =>
        toaster.send({ type: 'toast.show', toast: { type: 'success', title: event.summary } }),
      ),
      workspaceRef.on('operation.notice', (event) =>
        toaster.send({ type: 'toast.show', toast: { type: 'warning', title: event.message } }),
      ),
      exportRef.on('failed', (event) =>
        toaster.send({ type: 'toast.show', toast: { type: 'error', title: event.message } }),
      ),
      exportRef.on('exported', (event) =>
        toaster.send({
          type: 'toast.show',
          toast: { type: 'success', title: `Exported ${event.file.name}` },
        }),
      ),
      // whether the latest filled file is current follows every change of the answers: the
      // export machine checks it again on each new revision
      assignRef.on('assigned', (event) =>
        toaster.send({
          type: 'toast.show',
          toast: {
            type: 'success',
            title: `${event.unassigned ? 'Unassigned' : 'Assigned'} ${event.count} question${event.count === 1 ? '' : 's'}`,
          },
        }),
      ),
      ...followRevision(workspaceRef, exportRef),
      followHistory(workspaceRef, activityRef),
      ...followCarry(workspaceRef, carryRef),
    ],
    [workspaceRef, exportRef, carryRef, assignRef, activityRef, toaster],
  )

  const onChange = useCallback(
    (change: AnswerChange) => workspaceRef.send({ type: 'rows.merge', change }),
    [workspaceRef],
  )
  const onLibrarySaved = useCallback(
    (created: boolean) =>
      toaster.send({
        type: 'toast.show',
        toast: {
          type: 'success',
          title: created ? 'Added to the library' : 'Library answer updated',
        },
      }),
    [toaster],
  )
  const onOpenComments = useCallback(
    (questionId: number, open: number) => tellOpenComments(workspaceRef, questionId, open),
    [workspaceRef],
  )
  const openAssign = (questionId: number | null) =>
    assignRef.send({
      type: 'open',
      target: { questionId, tabId: view.tabId, filter: view.filter },
      scope: questionId ? 'question' : view.filter !== 'all' ? 'filter' : 'tab',
    })
  const focus = useCallback(
    (questionId: number) => {
      workspaceRef.send({ type: 'focus', questionId })
      setSheetOpen(true)
    },
    [workspaceRef],
  )

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return
    const key = event.key
    if (key === 'ArrowDown' || key === 'j') {
      event.preventDefault()
      workspaceRef.send({ type: 'focus.next' })
    } else if (key === 'ArrowUp' || key === 'k') {
      event.preventDefault()
      workspaceRef.send({ type: 'focus.previous' })
    } else if (key === 'Enter' || key === 'e') {
      event.preventDefault()
      if (view.focusedId) {
        setSheetOpen(true)
        answerRef.current?.send({ type: 'edit' })
      }
    } else if (key === 'a') {
      answerRef.current?.send({ type: 'approve' })
    } else if (key === 'u') {
      workspaceRef.send({ type: 'undo' })
    }
  }

  if (view.loadError) {
    return (
      <EmptyState
        icon={AlertTriangle}
        title={view.loadError}
        action={
          <div className={toolbar}>
            <Button
              size="sm"
              variant="outline"
              onClick={() => workspaceRef.send({ type: 'retry' })}
            >
              Try again
            </Button>
            <Button size="sm" variant="ghost" asChild>
              <Link to="/questionnaires">Back to questionnaires</Link>
            </Button>
          </div>
        }
      >
        The questionnaire could not be opened. It may have been deleted, or it belongs to another
        organisation.
      </EmptyState>
    )
  }
  if (view.loading && !view.questionnaire) {
    return (
      <div className={css({ display: 'flex', gap: '2', alignItems: 'center', color: 'fg.muted' })}>
        <Spinner size="sm" /> Loading the questionnaire...
      </div>
    )
  }
  if (!view.questionnaire) return null

  const panel = focused && (
    <AnswerPanel
      key={focused.id}
      row={focused}
      logic={logic.answer}
      workspace={workspaceRef}
      actorRef={answerRef}
      onChange={onChange}
      onSelectCandidate={(questionId, answerId) =>
        workspaceRef.send({ type: 'candidate.select', questionId, answerId })
      }
      onDelete={setDeleting}
      onApplyConsistency={(answerId) => workspaceRef.send({ type: 'answer.consistency', answerId })}
      onLibrarySaved={onLibrarySaved}
      evidenceFiles={view.evidenceFiles}
      onWantFiles={() => workspaceRef.send({ type: 'files.load' })}
      busy={view.busy}
      review={{ logic: logic.review, onAssign: () => openAssign(focused.id) }}
      comments={{ logic: logic.comments, onOpenCount: onOpenComments }}
    />
  )

  return (
    <div className={page}>
      <WorkspaceHeader
        workspace={workspaceRef}
        exports={exportRef}
        products={logic.products}
        onAssign={() => openAssign(null)}
      />
      <WorkspaceStatus workspace={workspaceRef} />
      <CarryForwardOffer carry={carryRef} />
      <WorkspaceTabs
        workspace={workspaceRef}
        onCustomInstruction={() => setCustomOpen(true)}
        onSection={(operation, tabId) => sectionRef.send({ type: 'preview', operation, tabId })}
      />
      <div className={workspace}>
        {view.rows.length ? (
          <AnswerGrid
            rows={view.rows}
            focusedId={view.focusedId}
            onFocus={focus}
            onKey={onKey}
            label={`Questions of ${currentTab?.name ?? 'the questionnaire'}`}
          />
        ) : (
          <div className={emptyTab}>
            <p>
              {currentTab && currentTab.questions === 0
                ? 'No questions were found on this tab.'
                : 'No questions match this filter.'}
            </p>
            {currentTab && currentTab.questions === 0 && currentTab.preview.length > 0 && (
              <MappingButton workspace={workspaceRef} tab={currentTab.name}>
                Map its columns
              </MappingButton>
            )}
          </div>
        )}
        <aside className={side} aria-label="Selected question">
          {wide &&
            (panel ?? (
              <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>
                Choose a question to review its answer, its sources and its candidates.
              </p>
            ))}
        </aside>
      </div>

      {!wide && (
        <AnswerSheet open={sheetOpen && focused !== null} onClose={() => setSheetOpen(false)}>
          {panel}
        </AnswerSheet>
      )}

      <HistoryDrawer
        open={view.historyOpen}
        loading={view.historyLoading}
        error={view.historyError}
        operations={view.history}
        busy={view.busy}
        onUndo={() => workspaceRef.send({ type: 'undo' })}
        onClose={() => workspaceRef.send({ type: 'history.close' })}
        activity={activityRef}
      />
      <MappingDialog
        tab={mappingTab}
        busy={view.busy}
        error={view.mappingError}
        onSubmit={(tab, mapping) => workspaceRef.send({ type: 'mapping.submit', tab, mapping })}
        onClose={() => workspaceRef.send({ type: 'mapping.close' })}
      />
      <CustomInstructionDialog
        open={customOpen}
        onClose={() => setCustomOpen(false)}
        onSubmit={(instruction) => {
          setCustomOpen(false)
          sectionRef.send({
            type: 'preview',
            operation: 'custom',
            tabId: currentTab?.id ?? null,
            instruction,
          })
        }}
      />
      <AssignDialog actor={assignRef} />
      <SectionPreviewDialog actor={sectionRef} />
      <LicenseDialog
        open={view.noticeOpen}
        maxAnswers={view.maxAnswers}
        onClose={() => workspaceRef.send({ type: 'notice.close' })}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this question?"
        description={`"${deleting?.text ?? ''}" and its answers leave this questionnaire. You can undo it from the history.`}
        confirmLabel="Delete question"
        busy={view.busy}
        onConfirm={() => {
          if (deleting) workspaceRef.send({ type: 'question.delete', questionId: deleting.id })
          setDeleting(null)
        }}
        onCancel={() => setDeleting(null)}
      />
    </div>
  )
}
