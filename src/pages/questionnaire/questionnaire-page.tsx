import { Portal } from '@ark-ui/react/portal'
import { getRouteApi, Link } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import {
  AlertTriangle,
  ChevronDown,
  ClipboardList,
  Columns3,
  Download,
  FileSpreadsheet,
  History,
  RefreshCw,
  Sparkles,
  Square,
  Undo2,
  Wand2,
  X,
} from 'lucide-react'
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { paths } from '../../../contract/paths.ts'
import {
  ANSWER_FILTER_LABELS,
  ANSWER_FILTERS,
  type AnswerChange,
  type QuestionRow,
} from '../../../contract/questionnaires.ts'
import { answerMachine } from '../../../machines/answer/index.ts'
import {
  questionnaireExportMachine,
  selectExportBusy,
  selectExportFormat,
  selectLatest,
} from '../../../machines/questionnaire-export/index.ts'
import {
  passesFilter,
  questionnaireWorkspaceMachine,
  selectAllRows,
  selectEvidenceFiles,
  selectFilter,
  selectFocusedId,
  selectHistory,
  selectHistoryError,
  selectHistoryLoading,
  selectHistoryOpen,
  selectInProgress,
  selectIsBusy,
  selectIsCancelling,
  selectIsGenerating,
  selectIsLoading,
  selectLoadError,
  selectMappingError,
  selectMappingTab,
  selectMaxAnswers,
  selectNoticeOpen,
  selectQuestionnaire,
  selectTabId,
  selectTabs,
  selectVisibleRows,
} from '../../../machines/questionnaire-workspace/index.ts'
import {
  answerActors,
  downloadPath,
  exportActors,
  workspaceActions,
  workspaceActors,
} from '../../api/questionnaire-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { Button } from '../../components/ui/button.tsx'
import * as Drawer from '../../components/ui/drawer.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { LinearProgress } from '../../components/ui/progress.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { formatRelative } from '../../lib/format.ts'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'
import { ConfirmDialog } from '../shared/confirm-dialog.tsx'
import { AnswerGrid } from './answer-grid.tsx'
import { type AnswerActorRef, AnswerPanel } from './answer-panel.tsx'
import {
  CustomInstructionDialog,
  HistoryDrawer,
  LicenseDialog,
  MappingDialog,
} from './workspace-dialogs.tsx'

const route = getRouteApi('/_app/questionnaire/$id')

/** The page's machines with the real actors; tests pass their own. */
export function createQuestionnaireLogic() {
  return {
    workspace: questionnaireWorkspaceMachine.provide({
      actors: workspaceActors(),
      actions: workspaceActions,
    }),
    answer: answerMachine.provide({ actors: answerActors() }),
    exports: questionnaireExportMachine.provide({ actors: exportActors() }),
  }
}
export type QuestionnaireLogic = ReturnType<typeof createQuestionnaireLogic>

const page = css({ display: 'flex', flexDirection: 'column', gap: '4', minH: '0' })
const header = css({
  display: 'flex',
  flexDirection: { base: 'column', md: 'row' },
  gap: '3',
  justifyContent: 'space-between',
  alignItems: { base: 'stretch', md: 'flex-start' },
})
const titleClass = css({
  textStyle: { base: 'xl', md: '2xl' },
  fontWeight: 'semibold',
  overflowWrap: 'anywhere',
  display: 'flex',
  gap: '2',
  alignItems: 'center',
})
const counts = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '4',
  textStyle: 'sm',
  color: 'fg.muted',
  mt: '1',
})
const count = css({ '& strong': { color: 'fg.default', fontWeight: 'semibold' } })
const toolbar = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })
const tabsBar = css({
  display: 'flex',
  gap: '1',
  overflowX: 'auto',
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
  scrollbarWidth: 'thin',
})
const tabButton = css({
  px: '3',
  py: '2',
  textStyle: 'sm',
  fontWeight: 'medium',
  whiteSpace: 'nowrap',
  color: 'fg.muted',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  mb: '-1px',
  cursor: 'pointer',
  _hover: { color: 'fg.default' },
  '&[aria-selected=true]': { color: 'fg.default', borderColor: 'colorPalette.default' },
})
const tabCount = css({ ml: '1.5', textStyle: 'xs', color: 'fg.subtle' })
const filters = css({ display: 'flex', flexWrap: 'wrap', gap: '1.5' })
const filterButton = css({
  px: '2.5',
  py: '1',
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border.default',
  textStyle: 'xs',
  fontWeight: 'medium',
  cursor: 'pointer',
  bg: 'bg.default',
  '&[aria-pressed=true]': {
    bg: 'colorPalette.default',
    color: 'colorPalette.fg',
    borderColor: 'colorPalette.default',
  },
})
const workspace = css({
  display: 'grid',
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
const notice = css({
  display: 'flex',
  gap: '3',
  alignItems: 'center',
  flexWrap: 'wrap',
  p: '3',
  borderRadius: 'l2',
  bg: 'amber.a3',
  color: 'amber.text',
  textStyle: 'sm',
})
const failure = css({
  display: 'flex',
  gap: '3',
  alignItems: 'center',
  flexWrap: 'wrap',
  p: '3',
  borderRadius: 'l2',
  bg: 'red.a3',
  color: 'red.text',
  textStyle: 'sm',
})
const emptyTab = css({
  display: 'grid',
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
const exportNote = css({ textStyle: 'xs', color: 'fg.muted' })

function useWideScreen() {
  const query = '(min-width: 1024px)'
  const [wide, setWide] = useState(() =>
    typeof window === 'undefined' || !window.matchMedia ? true : window.matchMedia(query).matches,
  )
  useEffect(() => {
    if (!window.matchMedia) return
    const list = window.matchMedia(query)
    const update = () => setWide(list.matches)
    list.addEventListener('change', update)
    return () => list.removeEventListener('change', update)
  }, [])
  return wide
}

export default function QuestionnairePage() {
  const { id } = route.useParams()
  if (!id) {
    return (
      <>
        <PageHeader title="Questionnaire Automation" />
        <EmptyState icon={ClipboardList} title="No questionnaire selected">
          Open a questionnaire from the <Link to="/questionnaires">Questionnaires</Link> page to
          review its answers.
        </EmptyState>
      </>
    )
  }
  return <QuestionnaireWorkspace key={id} id={id} />
}

export function QuestionnaireWorkspace(props: { id: number; logic?: QuestionnaireLogic }) {
  const [logic] = useState(() => props.logic ?? createQuestionnaireLogic())
  const workspaceRef = useActorRef(logic.workspace, { input: { id: props.id } })
  const exportRef = useActorRef(logic.exports, { input: { id: props.id } })
  const toaster = ToasterContext.useActorRef()
  const questionnaire = useSelector(workspaceRef, selectQuestionnaire)
  const tabs = useSelector(workspaceRef, selectTabs)
  const tabId = useSelector(workspaceRef, selectTabId)
  const filter = useSelector(workspaceRef, selectFilter)
  const focusedId = useSelector(workspaceRef, selectFocusedId)
  const rows = useSelector(workspaceRef, selectVisibleRows)
  const allRows = useSelector(workspaceRef, selectAllRows)
  const evidenceFiles = useSelector(workspaceRef, selectEvidenceFiles)
  const loading = useSelector(workspaceRef, selectIsLoading)
  const loadError = useSelector(workspaceRef, selectLoadError)
  const inProgress = useSelector(workspaceRef, selectInProgress)
  const busy = useSelector(workspaceRef, selectIsBusy)
  const generating = useSelector(workspaceRef, selectIsGenerating)
  const cancelling = useSelector(workspaceRef, selectIsCancelling)
  const [customOpen, setCustomOpen] = useState(false)
  const historyOpen = useSelector(workspaceRef, selectHistoryOpen)
  const historyLoading = useSelector(workspaceRef, selectHistoryLoading)
  const history = useSelector(workspaceRef, selectHistory)
  const historyError = useSelector(workspaceRef, selectHistoryError)
  const mappingTabName = useSelector(workspaceRef, selectMappingTab)
  const mappingError = useSelector(workspaceRef, selectMappingError)
  const noticeOpen = useSelector(workspaceRef, selectNoticeOpen)
  const maxAnswers = useSelector(workspaceRef, selectMaxAnswers)
  const latest = useSelector(exportRef, selectLatest)
  const exporting = useSelector(exportRef, selectExportBusy)
  const exportFormat = useSelector(exportRef, selectExportFormat)
  const answerRef = useRef<AnswerActorRef | null>(null)
  const [deleting, setDeleting] = useState<QuestionRow | null>(null)
  const wide = useWideScreen()
  const [sheetOpen, setSheetOpen] = useState(false)

  const focused = useMemo(() => rows.find((row) => row.id === focusedId) ?? null, [rows, focusedId])
  // tab counts follow the rows as answers change
  const tabCounts = useMemo(() => {
    const counts = new Map<number, { questions: number; answered: number }>()
    for (const row of allRows) {
      const entry = counts.get(row.tab_id) ?? { questions: 0, answered: 0 }
      entry.questions += 1
      if (passesFilter(row, 'all') && !passesFilter(row, 'unanswered')) entry.answered += 1
      counts.set(row.tab_id, entry)
    }
    return counts
  }, [allRows])
  const mappingTab = tabs.find((tab) => tab.name === mappingTabName) ?? null
  const currentTab = tabs.find((tab) => tab.id === tabId) ?? null
  const revision = questionnaire?.revision

  useEffect(() => {
    const subs = [
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
    ]
    return () => {
      for (const sub of subs) sub.unsubscribe()
    }
  }, [workspaceRef, exportRef, toaster])

  // whether the latest filled file is current follows every change of the answers
  useEffect(() => {
    if (revision !== undefined) exportRef.send({ type: 'refresh' })
  }, [revision, exportRef])

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
      if (focusedId) {
        setSheetOpen(true)
        answerRef.current?.send({ type: 'edit' })
      }
    } else if (key === 'a') {
      answerRef.current?.send({ type: 'approve' })
    } else if (key === 'u') {
      workspaceRef.send({ type: 'undo' })
    }
  }

  if (loadError) {
    return (
      <>
        <PageHeader title="Questionnaire Automation" />
        <EmptyState
          icon={AlertTriangle}
          title={loadError}
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
      </>
    )
  }
  if (loading && !questionnaire) {
    return (
      <div className={css({ display: 'flex', gap: '2', alignItems: 'center', color: 'fg.muted' })}>
        <Spinner size="sm" /> Loading the questionnaire...
      </div>
    )
  }
  if (!questionnaire) return null

  const percent = questionnaire.questions
    ? Math.round((questionnaire.answered / questionnaire.questions) * 100)
    : 0
  const unsureTab = tabs.find((tab) => tab.mapping_state === 'unsure')
  const panel = focused && (
    <AnswerPanel
      key={focused.id}
      row={focused}
      logic={logic.answer}
      actorRef={answerRef}
      onChange={onChange}
      onSelectCandidate={(questionId, answerId) =>
        workspaceRef.send({ type: 'candidate.select', questionId, answerId })
      }
      onDelete={setDeleting}
      onApplyConsistency={(answerId) => workspaceRef.send({ type: 'answer.consistency', answerId })}
      onLibrarySaved={onLibrarySaved}
      evidenceFiles={evidenceFiles}
      onWantFiles={() => workspaceRef.send({ type: 'files.load' })}
      busy={busy}
    />
  )

  return (
    <div className={page}>
      <div className={header}>
        <div className={css({ minW: '0' })}>
          <h2 className={titleClass}>
            <FileSpreadsheet size={22} /> {questionnaire.name}
          </h2>
          <div className={counts}>
            <span className={count}>
              <strong>{questionnaire.questions.toLocaleString()}</strong> questions
            </span>
            <span className={count}>
              <strong>{questionnaire.answered.toLocaleString()}</strong> answered ({percent}%)
            </span>
            <span className={count}>
              <strong>{questionnaire.approved.toLocaleString()}</strong> approved
            </span>
          </div>
        </div>
        <div className={toolbar}>
          {questionnaire.status === 'ready' && questionnaire.questions > 0 && (
            <Button
              size="sm"
              variant="outline"
              disabled={busy || inProgress}
              onClick={() => workspaceRef.send({ type: 'generate' })}
            >
              <Sparkles /> Generate answers
            </Button>
          )}
          <Button
            size="sm"
            variant="outline"
            disabled={busy || inProgress}
            onClick={() => workspaceRef.send({ type: 'undo' })}
          >
            <Undo2 /> Undo
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => workspaceRef.send({ type: 'history.open' })}
          >
            <History /> History
          </Button>
          <Menu.Root positioning={{ placement: 'bottom-end' }}>
            <Menu.Trigger asChild>
              <Button size="sm" loading={exporting} disabled={inProgress}>
                <Download /> Export <ChevronDown />
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  <Menu.Item
                    value="original"
                    disabled={!questionnaire.can_export_original}
                    onClick={() => exportRef.send({ type: 'export', format: 'original' })}
                  >
                    Fill the original file
                  </Menu.Item>
                  <Menu.Item
                    value="xlsx"
                    onClick={() => exportRef.send({ type: 'export', format: 'xlsx' })}
                  >
                    Answers as an Excel table
                  </Menu.Item>
                  <Menu.Item
                    value="csv"
                    onClick={() => exportRef.send({ type: 'export', format: 'csv' })}
                  >
                    Answers as CSV
                  </Menu.Item>
                  <Menu.Item
                    value="latest"
                    disabled={!latest}
                    onClick={() => exportRef.send({ type: 'download.latest' })}
                  >
                    Download the latest export again
                  </Menu.Item>
                  <Menu.Item
                    value="source"
                    onClick={() =>
                      downloadPath(
                        paths.questionnaires.download(questionnaire.id),
                        questionnaire.name,
                      ).catch((error: Error) =>
                        toaster.send({
                          type: 'toast.show',
                          toast: { type: 'error', title: error.message },
                        }),
                      )
                    }
                  >
                    Download the file as received
                  </Menu.Item>
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        </div>
      </div>

      {latest && (
        <p className={exportNote} data-testid="export-note">
          Latest export: {latest.name}, {formatRelative(latest.created_at)} ·{' '}
          {latest.current ? 'up to date' : 'answers changed since'}
          {exporting && exportFormat ? ' · exporting…' : ''}
        </p>
      )}

      {inProgress && (
        <div className={css({ display: 'flex', gap: '3', alignItems: 'flex-end' })}>
          <LinearProgress
            className={css({ flex: '1' })}
            value={questionnaire.progress}
            label={
              questionnaire.progress_label ??
              (generating ? 'Generating answers' : 'Analysing the questionnaire')
            }
            aria-label={generating ? 'Generation progress' : 'Analysis progress'}
          />
          {generating && (
            <Button
              size="xs"
              variant="outline"
              loading={cancelling}
              onClick={() => workspaceRef.send({ type: 'generate.cancel' })}
            >
              <Square /> Stop
            </Button>
          )}
        </div>
      )}
      {questionnaire.status === 'failed' && questionnaire.error && (
        <div className={failure} role="alert">
          <AlertTriangle size={18} />
          <span className={css({ flex: '1' })}>{questionnaire.error}</span>
          <Button
            size="sm"
            variant="outline"
            onClick={() => workspaceRef.send({ type: 'reanalyze' })}
          >
            <RefreshCw /> Re-analyze
          </Button>
        </div>
      )}
      {unsureTab && !inProgress && (
        <div className={notice}>
          <Columns3 size={18} />
          <span className={css({ flex: '1' })}>
            Quire is not sure where the questions and answers are on the tab “{unsureTab.name}”.
          </span>
          <Button
            size="sm"
            variant="outline"
            onClick={() => workspaceRef.send({ type: 'mapping.open', tab: unsureTab.name })}
          >
            Check the mapping
          </Button>
        </div>
      )}

      {tabs.length > 0 && (
        <div className={tabsBar} role="tablist" aria-label="Tabs">
          {tabs.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              aria-selected={tab.id === tabId}
              className={tabButton}
              onClick={() => workspaceRef.send({ type: 'tab.select', tabId: tab.id })}
            >
              {tab.name}
              <span className={tabCount}>
                {tabCounts.get(tab.id)?.answered ?? 0}/{tabCounts.get(tab.id)?.questions ?? 0}
              </span>
            </button>
          ))}
        </div>
      )}

      <div className={cx(toolbar, css({ justifyContent: 'space-between' }))}>
        <fieldset className={filters} aria-label="Filter">
          {ANSWER_FILTERS.map((value) => (
            <button
              key={value}
              type="button"
              className={filterButton}
              aria-pressed={filter === value}
              onClick={() => workspaceRef.send({ type: 'filter.set', filter: value })}
            >
              {ANSWER_FILTER_LABELS[value]}
            </button>
          ))}
        </fieldset>
        <div className={toolbar}>
          {currentTab && (
            <Menu.Root positioning={{ placement: 'bottom-end' }}>
              <Menu.Trigger asChild>
                <Button size="xs" variant="ghost" disabled={busy || inProgress}>
                  <Wand2 /> Section <ChevronDown />
                </Button>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    {(
                      [
                        ['consistency', 'Make answers consistent'],
                        ['shorten', 'Shorten answers'],
                        ['examples', 'Add examples from the evidence'],
                      ] as const
                    ).map(([operation, label]) => (
                      <Menu.Item
                        key={operation}
                        value={operation}
                        onClick={() =>
                          workspaceRef.send({
                            type: 'section.run',
                            operation,
                            tabId: currentTab.id,
                          })
                        }
                      >
                        {label}
                      </Menu.Item>
                    ))}
                    <Menu.Item value="custom" onClick={() => setCustomOpen(true)}>
                      Custom instruction…
                    </Menu.Item>
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
          )}
          {currentTab && (
            <Button
              size="xs"
              variant="ghost"
              onClick={() => workspaceRef.send({ type: 'mapping.open', tab: currentTab.name })}
              disabled={!currentTab.preview.length}
            >
              <Columns3 /> Map columns
            </Button>
          )}
        </div>
      </div>

      <div className={workspace}>
        {rows.length ? (
          <AnswerGrid
            rows={rows}
            focusedId={focusedId}
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
              <Button
                size="sm"
                variant="outline"
                onClick={() => workspaceRef.send({ type: 'mapping.open', tab: currentTab.name })}
              >
                Map its columns
              </Button>
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
        <Drawer.Root
          open={sheetOpen && focused !== null}
          onOpenChange={(details) => !details.open && setSheetOpen(false)}
        >
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner className={css({ w: '100vw', maxW: '100vw' })}>
              <Drawer.Content className={css({ w: 'full', maxW: 'full' })}>
                <Drawer.Header
                  className={css({ display: 'flex', justifyContent: 'flex-end', pb: '0' })}
                >
                  <Drawer.Title className={css({ srOnly: true })}>Answer</Drawer.Title>
                  <IconButton
                    size="sm"
                    variant="ghost"
                    aria-label="Close"
                    onClick={() => setSheetOpen(false)}
                  >
                    <X />
                  </IconButton>
                </Drawer.Header>
                <Drawer.Body>{panel}</Drawer.Body>
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
      )}

      <HistoryDrawer
        open={historyOpen}
        loading={historyLoading}
        error={historyError}
        operations={history}
        busy={busy}
        onUndo={() => workspaceRef.send({ type: 'undo' })}
        onClose={() => workspaceRef.send({ type: 'history.close' })}
      />
      <MappingDialog
        tab={mappingTab}
        busy={busy}
        error={mappingError}
        onSubmit={(tab, mapping) => workspaceRef.send({ type: 'mapping.submit', tab, mapping })}
        onClose={() => workspaceRef.send({ type: 'mapping.close' })}
      />
      <CustomInstructionDialog
        open={customOpen}
        onClose={() => setCustomOpen(false)}
        onSubmit={(instruction) => {
          setCustomOpen(false)
          workspaceRef.send({
            type: 'section.run',
            operation: 'custom',
            tabId: currentTab?.id ?? null,
            instruction,
          })
        }}
      />
      <LicenseDialog
        open={noticeOpen}
        maxAnswers={maxAnswers}
        onClose={() => workspaceRef.send({ type: 'notice.close' })}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this question?"
        description={`"${deleting?.text ?? ''}" and its answers leave this questionnaire. You can undo it from the history.`}
        confirmLabel="Delete question"
        busy={busy}
        onConfirm={() => {
          if (deleting) workspaceRef.send({ type: 'question.delete', questionId: deleting.id })
          setDeleting(null)
        }}
        onCancel={() => setDeleting(null)}
      />
    </div>
  )
}
