import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { ANSWER_FILTER_LABELS } from '../../../contract/questionnaires.ts'
import {
  type AssignScope,
  type assignmentMachine,
  assignmentView,
} from '../../../machines/assignment/index.ts'
import { useView } from '../../app/use-view.ts'
import { DialogActions, DialogForm, DialogFrame } from '../dialog-frame.tsx'
import { dialogBox } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import * as Field from '../ui/field.tsx'
import { SimpleSelect } from '../ui/select.tsx'

const NOBODY = 'none'

/** Assigning questions (issue 29): to whom, which questions, by when. */
export function AssignDialog(props: { actor: ActorRefFrom<typeof assignmentMachine> }) {
  const { actor } = props
  const view = useView(actor, assignmentView)
  const { target } = view
  const scopes: { value: AssignScope; label: string }[] = [
    ...(target.questionId ? [{ value: 'question' as const, label: 'This question' }] : []),
    ...(target.tabId ? [{ value: 'tab' as const, label: 'Every question of this tab' }] : []),
    ...(target.filter !== 'all'
      ? [
          {
            value: 'filter' as const,
            label: `Questions shown: ${ANSWER_FILTER_LABELS[target.filter]}`,
          },
        ]
      : []),
    { value: 'all', label: 'Every question of the questionnaire' },
  ]
  const people = [
    { value: NOBODY, label: 'Nobody (unassign)' },
    ...view.people.map((person) => ({
      value: String(person.id),
      label: person.name === person.email ? person.email : `${person.name} (${person.email})`,
    })),
  ]
  return (
    <DialogFrame
      open={view.open}
      onClose={() => actor.send({ type: 'close' })}
      className={dialogBox({ pad: 'fixed' })}
      title="Assign questions"
      description="The person assigned sees the questions in My work and is told."
    >
      {view.failed ? (
        <div className={css({ display: 'grid', gap: '3' })}>
          <p role="alert">{view.error}</p>
          <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'retry' })}>
            Try again
          </Button>
        </div>
      ) : (
        <DialogForm onSubmit={() => actor.send({ type: 'submit' })}>
          <SimpleSelect
            label="Questions"
            inDialog
            options={scopes}
            value={view.scope}
            onChange={(scope) => actor.send({ type: 'scope.set', scope: scope as AssignScope })}
          />
          <SimpleSelect
            label="Assign to"
            inDialog
            options={people}
            placeholder={view.loading ? 'Loading people…' : 'Choose a person'}
            value={view.assigneeId === null ? NOBODY : String(view.assigneeId)}
            onChange={(value) =>
              actor.send({
                type: 'person.set',
                assigneeId: value === NOBODY ? null : Number(value),
              })
            }
          />
          {view.assigneeId !== null && (
            <Field.Root>
              <Field.Label>Due (optional)</Field.Label>
              <Field.Input
                type="date"
                value={view.dueDate}
                onChange={(event) => actor.send({ type: 'due.set', dueDate: event.target.value })}
              />
              <Field.HelperText>No later than the questionnaire’s due date.</Field.HelperText>
            </Field.Root>
          )}
          {view.error && (
            <p className={css({ color: 'fg.error', textStyle: 'sm' })} role="alert">
              {view.error}
            </p>
          )}
          <DialogActions
            onCancel={() => actor.send({ type: 'close' })}
            confirmLabel={view.assigneeId === null ? 'Unassign' : 'Assign'}
            busy={view.saving}
            disabled={view.loading}
          />
        </DialogForm>
      )}
    </DialogFrame>
  )
}
