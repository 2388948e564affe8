import { getRouteApi, Link } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { AlertTriangle, ClipboardList } from 'lucide-react'
import { type KeyboardEvent, useCallback, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { grid, stack } from 'styled-system/patterns'
import type { AnswerChange } from '../../../contract/questionnaires.ts'
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
import { createQuestionnaireLogic, type QuestionnaireLogic } from './workspace-logic.ts'

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
  const toaster = ToasterContext.useActorRef()
  const view = useView(workspaceRef, workspacePageView)
  const answerRef = useRef<AnswerActorRef | null>(null)
  const wide = useMediaQuery('(min-width: 1024px)')
  const send = workspaceRef.send

  // the workspace words its toasts; the app's toaster shows them
  useEmitted(
    () => [
      workspaceRef.on('toast', (event) => toaster.send({ type: 'toast.show', toast: event.toast })),
    ],
    [workspaceRef, toaster],
  )
  const onChange = useCallback(
    (change: AnswerChange) => send({ type: 'rows.merge', change }),
    [send],
  )
  const onLibrarySaved = useCallback(
    (created: boolean) => send({ type: 'library.saved', created }),
    [send],
  )
  const onOpenComments = useCallback(
    (questionId: number, open: number) => send({ type: 'comments.count', questionId, open }),
    [send],
  )
  const onFocus = useCallback(
    (questionId: number) => send({ type: 'question.open', questionId }),
    [send],
  )

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return
    const key = event.key
    if (key === 'ArrowDown' || key === 'j') {
      event.preventDefault()
      send({ type: 'focus.next' })
    } else if (key === 'ArrowUp' || key === 'k') {
      event.preventDefault()
      send({ type: 'focus.previous' })
    } else if (key === 'Enter' || key === 'e') {
      event.preventDefault()
      send({ type: 'sheet.open' })
      answerRef.current?.send({ type: 'edit' })
    } else if (key === 'a') {
      answerRef.current?.send({ type: 'approve' })
    } else if (key === 'u') {
      send({ type: 'undo' })
    }
  }

  if (view.loadError) {
    return (
      <EmptyState
        icon={AlertTriangle}
        title={view.loadError}
        action={
          <div className={toolbar}>
            <Button size="sm" variant="outline" onClick={() => send({ type: 'retry' })}>
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
  const { exports, carry, sections, assignment, activity, focused, currentTab } = view
  if (!view.questionnaire || !exports || !carry || !sections || !assignment || !activity)
    return null

  const panel = focused && (
    <AnswerPanel
      key={focused.id}
      row={focused}
      logic={logic.answer}
      workspace={workspaceRef}
      actorRef={answerRef}
      onChange={onChange}
      onSelectCandidate={(questionId, answerId) =>
        send({ type: 'candidate.select', questionId, answerId })
      }
      onDelete={(row) => send({ type: 'delete.ask', questionId: row.id })}
      onApplyConsistency={(answerId) => send({ type: 'answer.consistency', answerId })}
      onLibrarySaved={onLibrarySaved}
      evidenceFiles={view.evidenceFiles}
      onWantFiles={() => send({ type: 'files.load' })}
      busy={view.busy}
      review={{
        logic: logic.review,
        onAssign: () => send({ type: 'assign.open', questionId: focused.id }),
      }}
      comments={{ logic: logic.comments, onOpenCount: onOpenComments }}
    />
  )

  return (
    <div className={page}>
      <WorkspaceHeader
        workspace={workspaceRef}
        exports={exports}
        products={logic.products}
        onAssign={() => send({ type: 'assign.open', questionId: null })}
      />
      <WorkspaceStatus workspace={workspaceRef} />
      <CarryForwardOffer carry={carry} />
      <WorkspaceTabs
        workspace={workspaceRef}
        onCustomInstruction={() => send({ type: 'custom.open' })}
        onSection={(operation, tabId) => send({ type: 'section.preview', operation, tabId })}
      />
      <div className={workspace}>
        {view.rows.length ? (
          <AnswerGrid
            rows={view.rows}
            focusedId={view.focusedId}
            onFocus={onFocus}
            onKey={onKey}
            label={view.gridLabel}
          />
        ) : (
          <div className={emptyTab}>
            <p>
              {view.tabEmpty
                ? 'No questions were found on this tab.'
                : 'No questions match this filter.'}
            </p>
            {view.canMapTab && currentTab && (
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
        <AnswerSheet open={view.sheetOpen} onClose={() => send({ type: 'sheet.close' })}>
          {panel}
        </AnswerSheet>
      )}

      <HistoryDrawer
        open={view.historyOpen}
        loading={view.historyLoading}
        error={view.historyError}
        operations={view.history}
        busy={view.busy}
        onUndo={() => send({ type: 'undo' })}
        onClose={() => send({ type: 'history.close' })}
        activity={activity}
      />
      <MappingDialog
        tab={view.mappingTab}
        busy={view.busy}
        error={view.mappingError}
        onSubmit={(tab, mapping) => send({ type: 'mapping.submit', tab, mapping })}
        onClose={() => send({ type: 'mapping.close' })}
      />
      <CustomInstructionDialog
        open={view.customOpen}
        onClose={() => send({ type: 'custom.close' })}
        onSubmit={(instruction) => send({ type: 'custom.submit', instruction })}
      />
      <AssignDialog actor={assignment} />
      <SectionPreviewDialog actor={sections} />
      <LicenseDialog
        open={view.noticeOpen}
        maxAnswers={view.maxAnswers}
        onClose={() => send({ type: 'notice.close' })}
      />
      <ConfirmDialog
        open={view.deleting !== null}
        title="Delete this question?"
        description={`"${view.deleting?.text ?? ''}" and its answers leave this questionnaire. You can undo it from the history.`}
        confirmLabel="Delete question"
        busy={view.busy}
        onConfirm={() => send({ type: 'delete.confirm' })}
        onCancel={() => send({ type: 'delete.cancel' })}
      />
    </div>
  )
}
