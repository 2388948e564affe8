import { useActorRef } from '@xstate/react'
import {
  AlertTriangle,
  BookPlus,
  Check,
  Copy,
  FileText,
  Pencil,
  RotateCcw,
  Sparkles,
  Trash2,
  Undo2,
} from 'lucide-react'
import { type RefObject, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import {
  ANSWER_SOURCE_LABELS,
  type AnswerChange,
  incompleteText,
  type QuestionRow,
  writtenBy,
} from '../../../contract/questionnaires.ts'
import { type Capability, can } from '../../../contract/roles.ts'
import { type answerMachine, answerPanelView } from '../../../machines/answer/index.ts'
import type { commentThreadMachine } from '../../../machines/comment-thread/index.ts'
import type { questionReviewMachine } from '../../../machines/question-review/index.ts'
import type { questionnaireWorkspaceMachine } from '../../../machines/questionnaire-workspace/index.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import { SessionContext } from '../../app/session.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { Button } from '../ui/button.tsx'
import { AnswerFlags, QuestionChange, SourceChangeView } from './answer-changes.tsx'
import { AnswerEditor } from './answer-editor.tsx'
import { EvidenceForm } from './answer-evidence.tsx'
import { AnswerMerge } from './answer-merge.tsx'
import { AnswerParts } from './answer-parts.tsx'
import { AnswerReview } from './answer-review.tsx'
import { AnswerSources } from './answer-sources.tsx'
import {
  actions,
  alert,
  answerBox,
  choicePill,
  hint,
  meta,
  muted,
  panel,
  questionText,
  reason,
  refClass,
  sectionTitle,
} from './answer-styles.ts'
import { ConfidenceBadge, StatusBadge } from './badges.tsx'
import { CommentThread } from './comment-thread.tsx'

type AnswerLogic = typeof answerMachine
export type AnswerActorRef = ActorRefFrom<AnswerLogic>

/** The focused question: its answer's lifecycle (answer machine), candidates and sources. */
export function AnswerPanel(props: {
  row: QuestionRow
  logic: AnswerLogic
  /** The workspace whose rows the answer follows when they change elsewhere (undo, operations). */
  workspace: ActorRefFrom<typeof questionnaireWorkspaceMachine>
  actorRef?: RefObject<AnswerActorRef | null>
  onChange: (change: AnswerChange) => void
  onSelectCandidate: (questionId: number, answerId: number) => void
  onDelete: (row: QuestionRow) => void
  onApplyConsistency: (answerId: number) => void
  onLibrarySaved?: (created: boolean) => void
  /** Repository files offered as evidence, loaded when the evidence form opens. */
  evidenceFiles: { id: number; name: string }[]
  onWantFiles: () => void
  busy: boolean
  /** Its assignment and review steps (issue 29); absent: not shown. */
  review?: { logic: typeof questionReviewMachine; onAssign: () => void }
  /** Its comment threads (issue 29), whose open count the row shows; absent: not shown. */
  comments?: {
    logic: typeof commentThreadMachine
    onOpenCount: (questionId: number, open: number) => void
  }
}) {
  const [evidenceOpen, setEvidenceOpen] = useState(false)
  const answer = useActorRef(props.logic, { input: { row: props.row } })
  const view = useView(answer, answerPanelView)
  const { row } = view
  const { onChange, onLibrarySaved, workspace, actorRef } = props
  const rowId = props.row.id

  useEmitted(() => {
    if (actorRef) actorRef.current = answer
    // the workspace's row reaches the answer; the answer machine adopts it only at rest and changed
    const follow = () => {
      const current = workspace.getSnapshot().context.rows.find((r) => r.id === rowId)
      if (current) answer.send({ type: 'row.update', row: current })
    }
    return [
      answer.on('changed', (event) => onChange(event.change)),
      answer.on('library.saved', (event) => onLibrarySaved?.(event.created)),
      workspace.subscribe(follow),
      {
        unsubscribe: () => {
          if (actorRef?.current === answer) actorRef.current = null
        },
      },
    ]
  }, [answer, onChange, onLibrarySaved, actorRef, workspace, rowId])

  const showChoice = (row.vocabulary ?? []).length > 0
  // a generated answer's note says what it rests on; a flagged one's why it was flagged
  const showNote = row.answer.status === 'generated' || row.answer.flags.length > 0
  // what the signed-in role may do (the server checks every call; until the profile loads, all)
  const role = SessionContext.useSelector(selectProfile)?.user.role ?? null
  const may = (capability: Capability) => role === null || can(role, capability)
  const mayWrite = may('questionnaires.write')
  // an approved answer changes only by someone who may approve (the server says the same)
  const mayChange = mayWrite && (!view.approved || may('answers.approve'))

  return (
    <section className={panel} aria-label="Answer">
      <div className={meta}>
        {row.ref && <span className={refClass}>{row.ref}</span>}
        <span>{row.tab}</span>
        {row.section && <span>· {row.section}</span>}
        {row.answer_cell && <span>· Cell {row.answer_cell}</span>}
      </div>
      <p className={questionText}>{row.text}</p>
      {row.carried_from?.kind === 'changed' && (
        <QuestionChange carried={row.carried_from} text={row.text} />
      )}
      <div className={stack({ gap: '1' })}>
        <div className={meta}>
          <StatusBadge status={row.answer.status} />
          <ConfidenceBadge answer={row.answer} />
        </div>
        {row.answer.assurance && (
          <p className={hint} data-testid="answer-assurance">
            {row.answer.assurance}
          </p>
        )}
        <AnswerFlags answer={row.answer} />
      </div>
      {props.review && (
        <AnswerReview
          row={row}
          logic={props.review.logic}
          mayWrite={mayWrite}
          mayApprove={may('answers.approve')}
          onAssign={props.review.onAssign}
          onChange={onChange}
        />
      )}

      {view.failed && view.error && (
        <div className={alert} role="alert">
          <AlertTriangle size={16} />
          <div className={css({ flex: '1' })}>
            <p>{view.error}</p>
            <div className={cx(actions, css({ mt: '2' }))}>
              <Button size="xs" variant="outline" onClick={() => answer.send({ type: 'retry' })}>
                <RotateCcw /> Retry
              </Button>
              <Button size="xs" variant="ghost" onClick={() => answer.send({ type: 'dismiss' })}>
                Dismiss
              </Button>
            </div>
          </div>
        </div>
      )}
      {!view.failed && view.error && (
        <p className={css({ color: 'fg.error', textStyle: 'sm' })} role="alert">
          {view.error}
        </p>
      )}

      {view.theirs ? (
        <AnswerMerge
          theirs={view.theirs}
          mine={view.draft}
          onTheirs={() => answer.send({ type: 'merge.theirs' })}
          onMine={() => answer.send({ type: 'merge.mine' })}
          onEdit={() => answer.send({ type: 'edit' })}
        />
      ) : view.editing ? (
        <AnswerEditor answer={answer} row={row} />
      ) : (
        <>
          {/* what the reviewer must decide first: the quoted passage changed */}
          {row.answer.flags.includes('source_changed') && row.answer.source_change && (
            <SourceChangeView
              change={row.answer.source_change}
              mayChange={mayChange}
              confirming={view.confirmingSource}
              regenerating={view.regenerating}
              busy={view.saving}
              onConfirm={() => answer.send({ type: 'source.confirm' })}
              onRegenerate={() => answer.send({ type: 'regenerate' })}
            />
          )}
          <div>
            <h3 className={sectionTitle}>Answer</h3>
            {showChoice && row.answer.choice && (
              <p className={css({ mb: '2' })}>
                <span className={choicePill}>{row.answer.choice}</span>
              </p>
            )}
            <div className={answerBox} data-testid="answer-text">
              {row.answer.text ? (
                row.answer.text
              ) : (
                <span className={muted}>
                  {row.answer.note ?? (showChoice ? 'No explanation yet.' : 'No answer yet.')}
                </span>
              )}
            </div>
            {row.answer.origin === 'person' ? (
              <p className={reason} data-testid="answer-origin">
                {writtenBy(row.answer)}
              </p>
            ) : (
              row.answer.drawn_from && (
                <p className={reason} data-testid="answer-origin">
                  {ANSWER_SOURCE_LABELS[row.answer.drawn_from]}
                </p>
              )
            )}
            {row.answer.text && row.answer.note && showNote && (
              <p className={reason} data-testid="answer-reason">
                {row.answer.note}
              </p>
            )}
            {row.answer.comment && (
              <p className={css({ mt: '2', textStyle: 'sm', color: 'fg.muted' })}>
                <strong>Comment in the file:</strong> {row.answer.comment}
              </p>
            )}
          </div>
          <AnswerParts parts={row.answer.parts} />
          {view.notice && (
            <p className={reason} role="status" data-testid="answer-notice">
              {view.notice}
            </p>
          )}
          {view.missing.length > 0 && !view.approved && (
            <p className={reason} role="note" data-testid="answer-missing">
              {incompleteText(view.missing)}
            </p>
          )}
          <div className={actions}>
            {mayChange && (
              <Button size="sm" variant="outline" onClick={() => answer.send({ type: 'edit' })}>
                <Pencil /> Edit
              </Button>
            )}
            {!may('answers.approve') ? (
              mayWrite && (
                <p className={hint} data-testid="approval-hint">
                  Approving answers needs an approver or an admin.
                </p>
              )
            ) : view.approved ? (
              <>
                <Button
                  size="sm"
                  variant="outline"
                  loading={view.saving}
                  onClick={() => answer.send({ type: 'unapprove' })}
                >
                  <Undo2 /> Un-approve
                </Button>
                {may('library.manage') && (
                  <Button
                    size="sm"
                    variant="outline"
                    loading={view.savingLibrary}
                    onClick={() => answer.send({ type: 'library.save' })}
                  >
                    <BookPlus /> Save to library
                  </Button>
                )}
              </>
            ) : (
              <Button
                size="sm"
                loading={view.saving}
                // nothing to approve yet: write the answer or use a candidate first
                disabled={!row.answer.text.trim() && !row.answer.choice}
                title={
                  !row.answer.text.trim() && !row.answer.choice
                    ? 'Write the answer or use a candidate first'
                    : undefined
                }
                onClick={() => answer.send({ type: 'approve' })}
              >
                <Check /> {view.missing.length ? 'Approve as it is' : 'Approve'}
              </Button>
            )}
            {mayChange && (
              <Button
                size="sm"
                variant="outline"
                loading={view.regenerating}
                disabled={view.saving && !view.regenerating}
                onClick={() => answer.send({ type: 'regenerate' })}
              >
                <Sparkles /> Regenerate
              </Button>
            )}
          </div>
          {mayWrite && (
            <div className={actions}>
              {mayChange && (
                <Button
                  size="xs"
                  variant="ghost"
                  onClick={() => {
                    if (!evidenceOpen) props.onWantFiles()
                    setEvidenceOpen((open) => !open)
                  }}
                  aria-expanded={evidenceOpen}
                >
                  <FileText /> Regenerate with evidence
                </Button>
              )}
              <Button
                size="xs"
                variant="ghost"
                disabled={props.busy || (!row.answer.text && !row.answer.choice)}
                onClick={() => props.onApplyConsistency(row.answer.id)}
              >
                <Copy /> Apply to matching questions
              </Button>
              <Button
                size="xs"
                variant="ghost"
                className={css({ colorPalette: 'red' })}
                disabled={props.busy}
                onClick={() => props.onDelete(row)}
              >
                <Trash2 /> Delete question
              </Button>
            </div>
          )}

          {evidenceOpen && (
            <EvidenceForm
              files={props.evidenceFiles}
              onSubmit={(evidence, fileIds) => {
                answer.send({ type: 'regenerate', evidence, fileIds })
                setEvidenceOpen(false)
              }}
            />
          )}
          <p className={hint}>Keys: ↑/↓ move · Enter edits · A approves · U undoes</p>
        </>
      )}

      {/* the sources first, under the answer they support; the conversation after them */}
      <AnswerSources row={row} busy={props.busy} onSelectCandidate={props.onSelectCandidate} />
      {props.comments && (
        <CommentThread
          questionId={row.id}
          logic={props.comments.logic}
          mayWrite={mayWrite}
          onOpenCount={props.comments.onOpenCount}
          workspace={workspace}
        />
      )}
    </section>
  )
}
