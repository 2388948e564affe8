import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import type { SectionOperation } from '../../../contract/questionnaires.ts'
import {
  type sectionPreviewMachine,
  sectionPreviewView,
} from '../../../machines/section-preview/index.ts'
import { useView } from '../../app/use-view.ts'
import { DialogActions, DialogFrame } from '../dialog-frame.tsx'
import { dialogBox } from '../styles.ts'
import { Spinner } from '../ui/spinner.tsx'

/** A section operation's changes, read before they are made (issue 30). */

export const SECTION_OPERATION_LABELS: Record<SectionOperation, string> = {
  consistency: 'Make answers consistent',
  shorten: 'Shorten answers',
  examples: 'Add examples from the evidence',
  custom: 'Apply your instruction',
}

const list = stack({ gap: '3', maxH: '55vh', overflowY: 'auto', pr: '1' })
const item = css({
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  textStyle: 'sm',
})
const question = css({ fontWeight: 'medium', mb: '2', overflowWrap: 'anywhere' })
const ref = css({ fontFamily: 'mono', textStyle: 'xs', color: 'fg.muted', mr: '2' })
const before = css({
  color: 'fg.muted',
  textDecoration: 'line-through',
  textDecorationColor: 'red.a7',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
})
const after = css({
  mt: '1.5',
  pl: '2',
  borderLeftWidth: '2px',
  borderColor: 'green.8',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
})
const note = css({ textStyle: 'sm', color: 'fg.muted' })
const pending = css({ display: 'flex', alignItems: 'center', gap: '2', py: '6', color: 'fg.muted' })
const warning = css({
  textStyle: 'sm',
  color: 'amber.text',
  bg: 'amber.a3',
  p: '2.5',
  borderRadius: 'l2',
})

const shown = (value: { text: string; choice: string | null }) =>
  [value.choice, value.text].filter(Boolean).join(' · ') || '(empty)'

export function SectionPreviewDialog(props: { actor: ActorRefFrom<typeof sectionPreviewMachine> }) {
  const view = useView(props.actor, sectionPreviewView)
  const changes = view.preview?.changes ?? []
  const operation = view.request?.operation ?? 'shorten'
  const cancel = () => props.actor.send({ type: 'cancel' })
  return (
    <DialogFrame
      open={view.open}
      onClose={cancel}
      className={dialogBox({ size: 'xlWide' })}
      title={SECTION_OPERATION_LABELS[operation]}
      description={
        view.preview
          ? changes.length
            ? `${changes.length === 1 ? '1 answer changes' : `${changes.length} answers change`}. Read them before applying; you can undo it afterwards.`
            : 'Nothing would change: every answer already reads this way, or is approved.'
          : undefined
      }
    >
      {view.loading && (
        <p className={pending} aria-live="polite">
          <Spinner size="sm" label="Working out what would change" /> Working out what would change…
        </p>
      )}
      {view.error && <p className={warning}>{view.error}</p>}
      {(view.preview?.contradictions.length ?? 0) > 0 && (
        <p className={warning}>
          {view.preview?.contradictions.length} approved answers say the opposite of the one the
          others would take; they are left as they are.
        </p>
      )}
      {changes.length > 0 && (
        <ol className={list} aria-label="Changes">
          {changes.map((change) => (
            <li key={change.question_id} className={item}>
              <p className={question}>
                {change.ref && <span className={ref}>{change.ref}</span>}
                {change.question}
              </p>
              <p className={before}>{shown(change.before)}</p>
              <p className={after}>{shown(change.after)}</p>
            </li>
          ))}
        </ol>
      )}
      {view.preview && !changes.length && <p className={note}>There is nothing to apply.</p>}
      <DialogActions
        onCancel={cancel}
        confirmLabel={
          view.error
            ? 'Try Again'
            : changes.length
              ? `Apply to ${changes.length === 1 ? '1 answer' : `${changes.length} answers`}`
              : 'Apply'
        }
        onConfirm={() => props.actor.send(view.error ? { type: 'retry' } : { type: 'confirm' })}
        disabled={!view.error && !changes.length}
      />
    </DialogFrame>
  )
}
