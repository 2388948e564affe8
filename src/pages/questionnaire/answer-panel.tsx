import { useActorRef, useSelector } from '@xstate/react'
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
import { type RefObject, useEffect, useId, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { textarea } from 'styled-system/recipes'
import type { AnswerChange, QuestionRow } from '../../../contract/questionnaires.ts'
import {
  type answerMachine,
  selectAnswerError,
  selectDraft,
  selectIsBusy,
  selectIsEditing,
  selectIsFailed,
  selectRow,
} from '../../../machines/answer/index.ts'
import { Button } from '../../components/ui/button.tsx'
import { ConfidenceBadge, StatusBadge } from './badges.tsx'

type AnswerLogic = typeof answerMachine
export type AnswerActorRef = ReturnType<typeof useActorRef<AnswerLogic>>

const panel = css({ display: 'flex', flexDirection: 'column', gap: '4', minW: '0' })
const meta = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '2',
  alignItems: 'center',
  textStyle: 'xs',
  color: 'fg.muted',
})
const refClass = css({ fontFamily: 'mono', fontWeight: 'semibold', color: 'fg.default' })
const questionText = css({ textStyle: 'md', fontWeight: 'medium', lineHeight: '1.5' })
const sectionTitle = css({
  textStyle: 'xs',
  fontWeight: 'semibold',
  textTransform: 'uppercase',
  letterSpacing: '0.04em',
  color: 'fg.muted',
  mb: '1.5',
})
const answerBox = css({
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.subtle',
  whiteSpace: 'pre-wrap',
  textStyle: 'sm',
  lineHeight: '1.6',
  minH: '16',
  overflowWrap: 'anywhere',
})
const muted = css({ color: 'fg.muted', fontStyle: 'italic' })
const reason = css({ mt: '2', textStyle: 'sm', color: 'fg.muted' })
const choicePill = css({
  display: 'inline-flex',
  alignItems: 'center',
  px: '2.5',
  py: '0.5',
  borderRadius: 'full',
  bg: 'colorPalette.a3',
  colorPalette: 'green',
  color: 'colorPalette.text',
  fontWeight: 'semibold',
  textStyle: 'sm',
})
const actions = css({ display: 'flex', flexWrap: 'wrap', gap: '2' })
const fieldLabel = css({ textStyle: 'sm', fontWeight: 'medium', mb: '1', display: 'block' })
const selectClass = css({
  w: 'full',
  h: '10',
  px: '3',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
})
const alert = css({
  display: 'flex',
  gap: '2',
  alignItems: 'flex-start',
  p: '3',
  borderRadius: 'l2',
  bg: 'red.a3',
  color: 'red.text',
  textStyle: 'sm',
})
const candidateList = css({ display: 'flex', flexDirection: 'column', gap: '2' })
const candidate = css({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gap: '2',
  p: '2.5',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  textStyle: 'sm',
  '&[data-selected]': { borderColor: 'colorPalette.default', bg: 'colorPalette.a2' },
})
const sourceItem = css({
  p: '2.5',
  borderLeftWidth: '3px',
  borderColor: 'colorPalette.default',
  bg: 'bg.subtle',
  borderRadius: 'l1',
  textStyle: 'sm',
})
const sourceTitle = css({
  display: 'flex',
  gap: '1.5',
  alignItems: 'center',
  fontWeight: 'semibold',
  mb: '1',
})
const hint = css({ textStyle: 'xs', color: 'fg.muted' })

/** The focused question: its answer's lifecycle (answer machine), candidates and sources. */
export function AnswerPanel(props: {
  row: QuestionRow
  logic: AnswerLogic
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
}) {
  const [evidenceOpen, setEvidenceOpen] = useState(false)
  const [evidence, setEvidence] = useState('')
  const [fileIds, setFileIds] = useState<number[]>([])
  const evidenceId = useId()
  const answer = useActorRef(props.logic, { input: { row: props.row } })
  const row = useSelector(answer, selectRow)
  const draft = useSelector(answer, selectDraft)
  const error = useSelector(answer, selectAnswerError)
  const editing = useSelector(answer, selectIsEditing)
  const saving = useSelector(answer, selectIsBusy)
  const failed = useSelector(answer, selectIsFailed)
  const approved = useSelector(answer, (s) => s.matches('approved') || s.matches('approving'))
  const regenerating = useSelector(answer, (s) => s.matches('regenerating'))
  const savingLibrary = useSelector(answer, (s) => s.matches('savingToLibrary'))
  const textId = useId()
  const choiceId = useId()
  const commentId = useId()
  const { onChange, onLibrarySaved } = props

  useEffect(() => {
    if (props.actorRef) props.actorRef.current = answer
    const sub = answer.on('changed', (event) => onChange(event.change))
    const saved = answer.on('library.saved', (event) => onLibrarySaved?.(event.created))
    return () => {
      sub.unsubscribe()
      saved.unsubscribe()
      if (props.actorRef?.current === answer) props.actorRef.current = null
    }
  }, [answer, onChange, onLibrarySaved, props.actorRef])

  // rows changed elsewhere (undo, another operation) reach the answer while it is at rest
  useEffect(() => {
    const snapshot = answer.getSnapshot()
    if (
      (snapshot.matches('viewing') || snapshot.matches('approved') || snapshot.matches('failed')) &&
      (snapshot.context.row.answer.id !== props.row.answer.id ||
        snapshot.context.row.answer.updated_at !== props.row.answer.updated_at ||
        snapshot.context.row.answer.status !== props.row.answer.status ||
        snapshot.context.row.candidates.length !== props.row.candidates.length)
    )
      answer.send({ type: 'row.update', row: props.row })
  }, [answer, props.row])

  const vocabulary = row.vocabulary ?? []
  const showChoice = vocabulary.length > 0

  return (
    <section className={panel} aria-label="Answer">
      <div className={meta}>
        {row.ref && <span className={refClass}>{row.ref}</span>}
        <span>{row.tab}</span>
        {row.section && <span>· {row.section}</span>}
        {row.answer_cell && <span>· Cell {row.answer_cell}</span>}
      </div>
      <p className={questionText}>{row.text}</p>
      <div className={meta}>
        <StatusBadge status={row.answer.status} />
        <ConfidenceBadge answer={row.answer} />
      </div>

      {failed && error && (
        <div className={alert} role="alert">
          <AlertTriangle size={16} />
          <div className={css({ flex: '1' })}>
            <p>{error}</p>
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
      {!failed && error && (
        <p className={css({ color: 'fg.error', textStyle: 'sm' })} role="alert">
          {error}
        </p>
      )}

      {editing ? (
        <form
          className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
          onSubmit={(event) => {
            event.preventDefault()
            answer.send({ type: 'save' })
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation()
              answer.send({ type: 'cancel' })
            }
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
              event.preventDefault()
              answer.send({ type: 'save' })
            }
          }}
        >
          {showChoice && (
            <div>
              <label className={fieldLabel} htmlFor={choiceId}>
                Answer value
              </label>
              <select
                id={choiceId}
                className={selectClass}
                value={draft.choice ?? ''}
                onChange={(event) =>
                  answer.send({ type: 'change', field: 'choice', value: event.target.value })
                }
              >
                <option value="">No value</option>
                {vocabulary.map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div>
            <label className={fieldLabel} htmlFor={textId}>
              {showChoice ? 'Explanation' : 'Answer'}
            </label>
            <textarea
              id={textId}
              className={textarea({ size: 'md' })}
              rows={6}
              // biome-ignore lint/a11y/noAutofocus: the editor opens on purpose, by a click or a key
              autoFocus
              value={draft.text}
              onChange={(event) =>
                answer.send({ type: 'change', field: 'text', value: event.target.value })
              }
            />
          </div>
          <div>
            <label className={fieldLabel} htmlFor={commentId}>
              Comment
            </label>
            <textarea
              id={commentId}
              className={textarea({ size: 'sm' })}
              rows={2}
              value={draft.comment}
              onChange={(event) =>
                answer.send({ type: 'change', field: 'comment', value: event.target.value })
              }
            />
          </div>
          <div className={actions}>
            <Button type="submit" size="sm">
              Save
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => answer.send({ type: 'cancel' })}
            >
              Cancel
            </Button>
            <span className={hint}>Ctrl+Enter saves, Esc cancels</span>
          </div>
        </form>
      ) : (
        <>
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
            {row.answer.text && row.answer.note && row.answer.status === 'generated' && (
              <p className={reason} data-testid="answer-reason">
                {row.answer.note}
              </p>
            )}
            {row.answer.comment && (
              <p className={css({ mt: '2', textStyle: 'sm', color: 'fg.muted' })}>
                <strong>Comment:</strong> {row.answer.comment}
              </p>
            )}
          </div>
          <div className={actions}>
            <Button size="sm" variant="outline" onClick={() => answer.send({ type: 'edit' })}>
              <Pencil /> Edit
            </Button>
            {approved ? (
              <>
                <Button
                  size="sm"
                  variant="outline"
                  loading={saving}
                  onClick={() => answer.send({ type: 'unapprove' })}
                >
                  <Undo2 /> Un-approve
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  loading={savingLibrary}
                  onClick={() => answer.send({ type: 'library.save' })}
                >
                  <BookPlus /> Save to library
                </Button>
              </>
            ) : (
              <Button
                size="sm"
                loading={saving}
                // nothing to approve yet: write the answer or use a candidate first
                disabled={!row.answer.text.trim() && !row.answer.choice}
                title={
                  !row.answer.text.trim() && !row.answer.choice
                    ? 'Write the answer or use a candidate first'
                    : undefined
                }
                onClick={() => answer.send({ type: 'approve' })}
              >
                <Check /> Approve
              </Button>
            )}
            <Button
              size="sm"
              variant="outline"
              loading={regenerating}
              disabled={saving && !regenerating}
              onClick={() => answer.send({ type: 'regenerate' })}
            >
              <Sparkles /> Regenerate
            </Button>
          </div>
          <div className={actions}>
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
          {evidenceOpen && (
            <form
              className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
              onSubmit={(event) => {
                event.preventDefault()
                if (!evidence.trim() && !fileIds.length) return
                answer.send({
                  type: 'regenerate',
                  evidence: evidence.trim() || undefined,
                  fileIds: fileIds.length ? fileIds : undefined,
                })
                setEvidenceOpen(false)
                setEvidence('')
                setFileIds([])
              }}
            >
              <label className={fieldLabel} htmlFor={evidenceId}>
                Evidence to answer from
              </label>
              <textarea
                id={evidenceId}
                className={textarea({ size: 'sm' })}
                rows={4}
                placeholder="Paste a policy excerpt or a fact. It is quoted as a source, never followed as an instruction."
                value={evidence}
                onChange={(event) => setEvidence(event.target.value)}
              />
              {props.evidenceFiles.length > 0 && (
                <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
                  <legend className={fieldLabel}>Or answer from these files</legend>
                  <div className={css({ maxH: '8rem', overflowY: 'auto', textStyle: 'sm' })}>
                    {props.evidenceFiles.map((file) => (
                      <label
                        key={file.id}
                        className={css({
                          display: 'flex',
                          gap: '2',
                          alignItems: 'center',
                          py: '0.5',
                        })}
                      >
                        <input
                          type="checkbox"
                          checked={fileIds.includes(file.id)}
                          onChange={() =>
                            setFileIds((ids) =>
                              ids.includes(file.id)
                                ? ids.filter((id) => id !== file.id)
                                : [...ids, file.id],
                            )
                          }
                        />
                        <span className={css({ overflowWrap: 'anywhere' })}>{file.name}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              )}
              <div className={actions}>
                <Button type="submit" size="xs" disabled={!evidence.trim() && !fileIds.length}>
                  Regenerate from this evidence
                </Button>
              </div>
            </form>
          )}
          <p className={hint}>Keys: ↑/↓ move · Enter edits · A approves · U undoes</p>
        </>
      )}

      {row.candidates.length > 1 && (
        <div>
          <h3 className={sectionTitle}>Candidates</h3>
          <ul className={candidateList}>
            {row.candidates.map((item) => (
              <li
                key={item.id}
                className={candidate}
                data-selected={item.id === row.answer.id ? '' : undefined}
              >
                <div className={css({ minW: '0' })}>
                  <p className={css({ fontWeight: 'medium' })}>
                    {item.choice && <span className={choicePill}>{item.choice}</span>}{' '}
                    <ConfidenceBadge answer={item} />
                  </p>
                  <p className={css({ mt: '1', lineClamp: '3', color: 'fg.muted' })}>
                    {item.text || item.note || 'No text'}
                  </p>
                </div>
                {item.id === row.answer.id ? (
                  <span className={hint}>In use</span>
                ) : (
                  <Button
                    size="xs"
                    variant="outline"
                    disabled={props.busy}
                    onClick={() => props.onSelectCandidate(row.id, item.id)}
                  >
                    Use this
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <div>
        <h3 className={sectionTitle}>Sources</h3>
        {row.answer.citations.length ? (
          <ul className={candidateList}>
            {row.answer.citations.map((citation, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two passages of one file share an id
              <li key={`${citation.source}-${citation.id}-${index}`} className={sourceItem}>
                <p className={sourceTitle}>
                  <FileText size={14} /> {citation.title}
                  {citation.location?.page ? ` · page ${citation.location.page}` : ''}
                  {citation.location?.sheet ? ` · ${citation.location.sheet}` : ''}
                </p>
                <p className={css({ color: 'fg.muted', lineClamp: '4' })}>{citation.snippet}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p className={hint}>No sources: this answer was written by hand or not answered yet.</p>
        )}
      </div>
    </section>
  )
}
