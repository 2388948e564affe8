import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { AnswerChange } from '../../contract/questionnaires.ts'
import * as view from '../../machines/answer/index.ts'
import {
  type AnswerIdInput,
  answerMachine,
  type SaveAnswerInput,
} from '../../machines/answer/index.ts'
import { changeOf, rowOf } from '../fixtures/answer-rows.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(answerMachine)
const empty = rowOf(1)
const answered = rowOf(1, {}, { text: 'Yes, AES-256.', choice: 'Yes', status: 'edited' })
const approved = rowOf(1, {}, { text: 'Yes, AES-256.', choice: 'Yes', status: 'approved' })
const SOURCE_CHANGE = {
  file_id: 4,
  title: 'Encryption policy.txt',
  version: 2,
  before: 'Data at rest is encrypted with AES-256.',
  after: 'Data at rest is encrypted.',
  flagged_at: '2026-11-25T10:00:00.000Z',
}
const flagged = rowOf(
  1,
  {},
  {
    text: 'Yes, AES-256.',
    choice: 'Yes',
    status: 'generated',
    flags: ['source_changed'],
    source_change: SOURCE_CHANGE,
    updated_at: '2026-11-25T10:00:00.000Z',
  },
)
const flaggedApproved = rowOf(
  1,
  {},
  { ...flagged.answer, status: 'approved', updated_at: '2026-11-25T11:00:00.000Z' },
)
const id = 'xstate.%s.actor.0.answer.%s'
const result = (kind: 'done' | 'error', state: string, payload: object) => ({
  type: id.replace('%s', kind).replace('%s', state),
  ...payload,
})
const events: AnyEventObject[] = [
  { type: 'row.update', row: answered },
  { type: 'row.update', row: approved },
  { type: 'row.update', row: empty },
  { type: 'row.update', row: flagged },
  { type: 'row.update', row: flaggedApproved },
  { type: 'source.confirm' },
  { type: 'edit' },
  { type: 'change', field: 'text', value: 'Encrypted at rest.' },
  { type: 'change', field: 'choice', value: 'Yes' },
  { type: 'cancel' },
  { type: 'save' },
  { type: 'approve' },
  { type: 'unapprove' },
  { type: 'regenerate' },
  { type: 'retry' },
  { type: 'dismiss' },
  { type: 'library.save' },
  { type: 'merge.theirs' },
  { type: 'merge.mine' },
  // someone else saved first: the server's 409 carries their answer
  result('error', 'saving', {
    error: Object.assign(new Error('Someone else changed this answer'), {
      current: { ...answered.answer, text: 'Theirs.', version: 2 },
    }),
  }),
  result('done', 'savingToLibrary', { output: { item_id: 1, created: true } }),
  result('error', 'savingToLibrary', { error: new Error('Write an answer before approving it') }),
  ...['saving', 'approving', 'unapproving', 'regenerating', 'confirmingSource'].flatMap((state) => [
    result('done', state, { output: changeOf([answered]) }),
    result('error', state, { error: new Error('Answer not found') }),
  ]),
]

describe('answerMachine', () => {
  testEveryPath(pending, events, {
    view,
    input: { row: empty },
    identity: (s) => [
      s.context.row.answer.status,
      Boolean(s.context.row.answer.text),
      s.context.draft.text !== s.context.row.answer.text,
      s.context.lastAction,
      s.context.row.answer.flags.length,
      Boolean(s.context.error),
    ],
  })

  test('a save that ran into someone else’s change holds theirs beside mine, then saves mine against theirs', async () => {
    const saved: SaveAnswerInput[] = []
    let calls = 0
    const theirs = { ...answered.answer, text: 'Theirs: yes, with KMS.', version: 5 }
    const actor = createActor(
      answerMachine.provide({
        actors: {
          saveAnswer: fromPromise<AnswerChange, SaveAnswerInput>(async ({ input }) => {
            saved.push(input)
            calls += 1
            if (calls === 1)
              throw Object.assign(new Error('Someone else changed this answer'), {
                current: theirs,
              })
            return changeOf([rowOf(1, {}, { text: input.edit.text, status: 'edited', version: 6 })])
          }),
        },
      }),
      { input: { row: answered } },
    ).start()
    actor.send({ type: 'edit' })
    actor.send({ type: 'change', field: 'text', value: 'Mine: yes.' })
    actor.send({ type: 'save' })
    await new Promise((r) => setTimeout(r, 0))
    let snapshot = actor.getSnapshot()
    expect(snapshot.value).toBe('conflicted')
    expect(snapshot.context.theirs?.text).toBe('Theirs: yes, with KMS.')
    // nothing typed is lost, and the row shows what the server holds
    expect(snapshot.context.draft.text).toBe('Mine: yes.')
    expect(snapshot.context.row.answer.text).toBe('Yes, AES-256.')
    actor.send({ type: 'merge.mine' })
    await new Promise((r) => setTimeout(r, 0))
    snapshot = actor.getSnapshot()
    expect(saved[1]?.edit).toMatchObject({ text: 'Mine: yes.', version: 5 })
    expect(snapshot.value).toBe('viewing')
    expect(snapshot.context.row.answer.text).toBe('Mine: yes.')
  })

  test('taking theirs drops the draft and shows their answer', async () => {
    const theirs = { ...answered.answer, text: 'Theirs.', version: 3 }
    const actor = createActor(
      answerMachine.provide({
        actors: {
          saveAnswer: fromPromise<AnswerChange, SaveAnswerInput>(async () => {
            throw Object.assign(new Error('stale'), { current: theirs })
          }),
        },
      }),
      { input: { row: answered } },
    ).start()
    actor.send({ type: 'edit' })
    actor.send({ type: 'change', field: 'text', value: 'Mine.' })
    actor.send({ type: 'save' })
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'merge.theirs' })
    const snapshot = actor.getSnapshot()
    expect(snapshot.context.row.answer.text).toBe('Theirs.')
    expect(snapshot.context.draft.text).toBe('Theirs.')
    expect(snapshot.context.baseVersion).toBe(3)
  })

  test('shows a saved edit at once, and rolls back with the error when the server refuses', async () => {
    let reject: (error: Error) => void = () => {}
    const saved: SaveAnswerInput[] = []
    const actor = createActor(
      answerMachine.provide({
        actors: {
          saveAnswer: fromPromise<AnswerChange, SaveAnswerInput>(({ input }) => {
            saved.push(input)
            return new Promise((_, no) => {
              reject = no
            })
          }),
        },
      }),
      { input: { row: empty } },
    ).start()
    actor.send({ type: 'edit' })
    actor.send({ type: 'change', field: 'text', value: 'All data is encrypted.' })
    actor.send({ type: 'change', field: 'choice', value: 'Maybe' })
    actor.send({ type: 'save' })
    expect(actor.getSnapshot().value).toBe('saving')
    expect(actor.getSnapshot().context.row.answer).toMatchObject({
      text: 'All data is encrypted.',
      status: 'edited',
    })
    expect(saved[0]).toEqual({
      answerId: 10,
      edit: { text: 'All data is encrypted.', choice: 'Maybe', comment: '', version: 1 },
    })
    reject(new Error('Maybe is not one of the values this answer cell allows'))
    await new Promise((r) => setTimeout(r, 0))
    const snapshot = actor.getSnapshot()
    expect(snapshot.value).toBe('failed')
    expect(snapshot.context.row.answer).toMatchObject({ text: '', status: 'pending' })
    expect(snapshot.context.error).toBe('Maybe is not one of the values this answer cell allows')
    // the draft survives for another try
    actor.send({ type: 'edit' })
    expect(actor.getSnapshot().context.draft.text).toBe('All data is encrypted.')
  })

  test('refuses to approve an empty answer with the contract words, and emits server changes', async () => {
    const changes: AnswerChange[] = []
    const actor = createActor(
      answerMachine.provide({
        actors: {
          approveAnswer: fromPromise<AnswerChange, AnswerIdInput>(async () =>
            changeOf([approved], { approved: 1 }),
          ),
        },
      }),
      { input: { row: empty } },
    ).start()
    actor.on('changed', (event) => changes.push(event.change))
    actor.send({ type: 'approve' })
    expect(actor.getSnapshot().context.error).toBe('Write an answer before approving it')
    actor.send({ type: 'row.update', row: answered })
    actor.send({ type: 'approve' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().value).toBe('approved')
    expect(changes[0]?.questionnaire.approved).toBe(1)
  })

  test('adopts a row changed elsewhere only when it differs, and never while editing', () => {
    const actor = createActor(pending, { input: { row: answered } }).start()
    const before = actor.getSnapshot()
    actor.send({ type: 'row.update', row: { ...answered } })
    expect(actor.getSnapshot()).toBe(before)
    // sent back by a reviewer: the answer is the same, its review is not (issue 29)
    const sentBack = {
      ...answered,
      assignment: { ...answered.assignment, review_state: 'changes_requested' as const },
    }
    actor.send({ type: 'row.update', row: sentBack })
    expect(actor.getSnapshot().context.row.assignment.review_state).toBe('changes_requested')
    actor.send({ type: 'row.update', row: approved })
    expect(actor.getSnapshot().value).toBe('approved')
    actor.send({ type: 'edit' })
    actor.send({ type: 'row.update', row: empty })
    expect(actor.getSnapshot().value).toBe('editing')
    expect(actor.getSnapshot().context.row).toBe(approved)
  })

  test('confirms that a changed document still holds: the flag clears as the server returns the row', async () => {
    const asked: AnswerIdInput[] = []
    const cleared = rowOf(1, {}, { ...flagged.answer, flags: [], source_change: undefined })
    const actor = createActor(
      answerMachine.provide({
        actors: {
          confirmSource: fromPromise<AnswerChange, AnswerIdInput>(async ({ input }) => {
            asked.push(input)
            return changeOf([cleared])
          }),
        },
      }),
      { input: { row: answered } },
    ).start()
    // nothing to confirm on an answer whose sources have not changed
    actor.send({ type: 'source.confirm' })
    expect(actor.getSnapshot().value).toBe('viewing')
    actor.send({ type: 'row.update', row: flagged })
    actor.send({ type: 'source.confirm' })
    expect(actor.getSnapshot().value).toBe('confirmingSource')
    await new Promise((r) => setTimeout(r, 0))
    expect(asked).toEqual([{ answerId: 10 }])
    expect(actor.getSnapshot().value).toBe('viewing')
    expect(actor.getSnapshot().context.row.answer.flags).toEqual([])
  })

  test('a regeneration that found nothing new says so; the next action clears it (issue 39)', async () => {
    const outputs: AnswerChange[] = [
      { ...changeOf([answered]), notice: 'No new evidence since the last draft' },
      changeOf([answered]),
    ]
    const actor = createActor(
      answerMachine.provide({
        actors: {
          regenerateAnswer: fromPromise<AnswerChange, AnswerIdInput>(
            async () => outputs.shift() as AnswerChange,
          ),
        },
      }),
      { input: { row: answered } },
    ).start()
    actor.send({ type: 'regenerate' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.notice).toBe('No new evidence since the last draft')
    actor.send({ type: 'regenerate' })
    expect(actor.getSnapshot().context.notice).toBeNull()
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.notice).toBeNull()
  })

  test('a refused confirmation keeps the flag and is retried as a confirmation', async () => {
    let calls = 0
    const actor = createActor(
      answerMachine.provide({
        actors: {
          confirmSource: fromPromise<AnswerChange, AnswerIdInput>(async () => {
            calls += 1
            throw new Error('Answer not found')
          }),
        },
      }),
      { input: { row: flaggedApproved } },
    ).start()
    actor.send({ type: 'source.confirm' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.row.answer.flags).toEqual(['source_changed'])
    actor.send({ type: 'retry' })
    expect(actor.getSnapshot().value).toBe('confirmingSource')
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).toBe(2)
  })
})
