import { Portal } from '@ark-ui/react/portal'
import { useActorRef, useSelector } from '@xstate/react'
import { History, Undo2 } from 'lucide-react'
import { useId, useState } from 'react'
import { css } from 'styled-system/css'
import { grid, stack } from 'styled-system/patterns'
import { input, textarea } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { fillText } from '../../../contract/knowledge.ts'
import {
  type Operation,
  QUESTIONNAIRE_TEXTS,
  type Tab,
  type TabMapping,
} from '../../../contract/questionnaires.ts'
import {
  columnMappingMachine,
  type MappingColumn,
  selectMapping,
} from '../../../machines/column-mapping/index.ts'
import type { questionnaireActivityMachine } from '../../../machines/questionnaire-activity/index.ts'
import { DialogActions, DialogForm, DialogFrame } from '../../components/dialog-frame.tsx'
import { ActivityList } from '../../components/questionnaire/activity-list.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { dialogActions, dialogBox, fieldLabel } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Drawer from '../../components/ui/drawer.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { formatExact } from '../../lib/format.ts'

/** Spec section 2: 'License Limitation', once per browser session. */
export function LicenseDialog(props: { open: boolean; maxAnswers: number; onClose: () => void }) {
  return (
    <DialogFrame
      open={props.open}
      onClose={props.onClose}
      className={dialogBox({ pad: 'fixed' })}
      title="License Limitation"
      description={fillText(QUESTIONNAIRE_TEXTS.answersLimit, { max_answers: props.maxAnswers })}
    >
      <div className={dialogActions}>
        <Button onClick={props.onClose}>OK</Button>
      </div>
    </DialogFrame>
  )
}

const historyList = stack({ gap: '2' })
const historyItem = css({
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  textStyle: 'sm',
  '&[data-undone]': { opacity: 0.55, textDecoration: 'line-through' },
})
const small = css({ textStyle: 'xs', color: 'fg.muted', mt: '1' })

export function HistoryDrawer(props: {
  open: boolean
  loading: boolean
  error: string | null
  operations: Operation[]
  busy: boolean
  onUndo: () => void
  onClose: () => void
  /** Who did what (issue 29), beside the changes to the answers. */
  activity: ActorRefFrom<typeof questionnaireActivityMachine>
}) {
  const canUndo = props.operations.some((op) => op.can_undo)
  return (
    <Drawer.Root open={props.open} onOpenChange={(details) => !details.open && props.onClose()}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content className={css({ w: { base: '100vw', sm: 'md' } })}>
            <Drawer.Header>
              <Drawer.Title className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                <History size={18} /> History
              </Drawer.Title>
              <Drawer.Description>
                Every change to the answers. Undo reverts the latest one.
              </Drawer.Description>
            </Drawer.Header>
            <Drawer.Body>
              <Button
                size="sm"
                variant="outline"
                disabled={!canUndo || props.busy}
                onClick={props.onUndo}
                className={css({ mb: '4' })}
              >
                <Undo2 /> Undo the latest change
              </Button>
              {props.loading && <Spinner size="sm" />}
              {props.error && (
                <p className={css({ color: 'fg.error', textStyle: 'sm' })}>{props.error}</p>
              )}
              {!props.loading && !props.operations.length && (
                <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>No changes yet.</p>
              )}
              <ol className={historyList}>
                {props.operations.map((op) => (
                  <li key={op.id} className={historyItem} data-undone={op.undone ? '' : undefined}>
                    <p>{op.summary}</p>
                    <p className={small} title={formatExact(op.created_at)}>
                      {op.by ? `${op.by.name} · ` : ''}
                      <RelativeTime iso={op.created_at} />
                      {op.undone ? ' · undone' : ''}
                    </p>
                  </li>
                ))}
              </ol>
              <ActivityList actor={props.activity} />
            </Drawer.Body>
            <Drawer.Footer>
              <Button variant="outline" onClick={props.onClose}>
                Close
              </Button>
            </Drawer.Footer>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  )
}

const fields = grid({ gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' })
const previewWrap = css({
  overflowX: 'auto',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  maxH: '15rem',
})
const previewTable = css({
  textStyle: 'xs',
  borderCollapse: 'collapse',
  '& td, & th': {
    px: '2',
    py: '1',
    borderBottomWidth: '1px',
    borderColor: 'border.subtle',
    whiteSpace: 'nowrap',
    maxW: '14rem',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  '& th': { bg: 'bg.subtle', fontWeight: 'semibold', position: 'sticky', top: '0' },
})

const COLUMNS: { key: MappingColumn; label: string; required?: boolean }[] = [
  { key: 'question_column', label: 'Question column', required: true },
  { key: 'answer_column', label: 'Answer column' },
  { key: 'id_column', label: 'ID column' },
  { key: 'comment_column', label: 'Comment column' },
  { key: 'section_column', label: 'Section column' },
]

/** Confirms or corrects where a tab's questions and answers are; re-analysis uses it. */
export function MappingDialog(props: {
  tab: Tab | null
  busy: boolean
  error: string | null
  onSubmit: (tab: string, mapping: TabMapping) => void
  onClose: () => void
}) {
  const tab = props.tab
  return (
    <DialogFrame
      open={tab !== null}
      onClose={props.onClose}
      className={dialogBox({ size: 'wide' })}
      title={<>Map the columns of {tab?.name}</>}
      description="Tell Quire which row holds the headers and which columns hold the questions and where the answers go. The questionnaire is analysed again with this mapping, and answers already given are kept."
    >
      {/* a new tab, or a new mapping from the server, starts the form again */}
      <MappingForm key={tab ? `${tab.id}:${JSON.stringify(tab.mapping)}` : ''} {...props} />
    </DialogFrame>
  )
}

/** The mapping being corrected (column-mapping machine), the tab's preview and the actions. */
function MappingForm(props: {
  tab: Tab | null
  busy: boolean
  error: string | null
  onSubmit: (tab: string, mapping: TabMapping) => void
  onClose: () => void
}) {
  const form = useActorRef(columnMappingMachine, { input: { mapping: props.tab?.mapping ?? null } })
  const mapping = useSelector(form, selectMapping)
  const headerId = useId()
  const tab = props.tab
  const headers = tab?.headers.length ? tab.headers : ['A', 'B', 'C', 'D']
  return (
    <DialogForm
      onSubmit={() => {
        if (tab) props.onSubmit(tab.name, mapping)
      }}
    >
      <div className={fields}>
        <div>
          <label className={fieldLabel} htmlFor={headerId}>
            Header row
          </label>
          <input
            id={headerId}
            className={input({ size: 'md' })}
            type="number"
            min={0}
            value={mapping.header_row}
            onChange={(event) => form.send({ type: 'header.set', value: event.target.value })}
          />
        </div>
        {COLUMNS.map((column) => (
          <SimpleSelect
            key={column.key}
            label={column.label}
            inDialog
            size="md"
            placeholder="Choose a column"
            options={[
              ...(column.required ? [] : [{ value: '', label: 'None' }]),
              ...headers.map((header, index) => ({ value: String(index), label: header })),
            ]}
            value={mapping[column.key] === null ? '' : String(mapping[column.key])}
            onChange={(value) => form.send({ type: 'column.set', column: column.key, value })}
          />
        ))}
      </div>
      {tab?.preview.length ? (
        <div className={previewWrap}>
          <table className={previewTable}>
            <thead>
              <tr>
                {headers.slice(0, tab.preview[0]?.length ?? 0).map((header) => (
                  <th key={header}>{header.split(':')[0]}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {tab.preview.map((row, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no ids
                <tr key={index}>
                  {row.map((cell, column) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells have no ids
                    <td key={column} title={cell}>
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {props.error && (
        <p className={css({ color: 'fg.error', textStyle: 'sm' })} role="alert">
          {props.error}
        </p>
      )}
      <DialogActions
        onCancel={props.onClose}
        confirmLabel="Analyse with this mapping"
        busy={props.busy}
      />
    </DialogForm>
  )
}

/** A free instruction for a section; answered by the server (it needs a language model). */
export function CustomInstructionDialog(props: {
  open: boolean
  onClose: () => void
  onSubmit: (instruction: string) => void
}) {
  const [instruction, setInstruction] = useState('')
  const id = useId()
  return (
    <DialogFrame
      open={props.open}
      onClose={props.onClose}
      className={dialogBox({ pad: 'fixed' })}
      title="Custom instruction"
      description="Tell Quire what to do with the answers of this tab, for example “answer in the first person plural”. Custom instructions need a language model."
    >
      <DialogForm
        className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
        onSubmit={() => {
          if (instruction.trim()) props.onSubmit(instruction.trim())
        }}
      >
        <label className={fieldLabel} htmlFor={id}>
          Instruction
        </label>
        <textarea
          id={id}
          className={textarea({ size: 'md' })}
          rows={3}
          value={instruction}
          onChange={(event) => setInstruction(event.target.value)}
        />
        <DialogActions onCancel={props.onClose} confirmLabel="Run" disabled={!instruction.trim()} />
      </DialogForm>
    </DialogFrame>
  )
}
