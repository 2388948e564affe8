import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Questionnaire } from '../../contract/questionnaires.ts'
import * as view from '../../machines/questionnaire-workspace/index.ts'
import {
  mergeRows,
  type OperationResult,
  offeredFilters,
  passesFilter,
  questionnaireWorkspaceMachine,
  selectHasCarried,
  selectIsRead,
  visibleRows,
  type WorkspaceData,
  type WorkspaceOperation,
  workspaceHeaderView,
} from '../../machines/questionnaire-workspace/index.ts'
import { changeOf, questionnaireOf, quietLive, rowOf, tabOf } from '../fixtures/answer-rows.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(questionnaireWorkspaceMachine, { live: quietLive })
const rows = [rowOf(1), rowOf(2, {}, { text: 'Yes', status: 'approved' }), rowOf(3, { tab_id: 2 })]
const ready: WorkspaceData = {
  questionnaire: questionnaireOf(),
  tabs: [tabOf(1), tabOf(2)],
  rows,
}
const analysing: WorkspaceData = {
  ...ready,
  questionnaire: questionnaireOf({ status: 'analyzing', progress: 40 }),
}
const at = (kind: 'done' | 'error', state: string) =>
  `xstate.${kind}.actor.0.questionnaireWorkspace.${state}`
const mapping = {
  header_row: 1,
  id_column: null,
  question_column: 1,
  answer_column: 2,
  comment_column: null,
  section_column: null,
}
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'refresh' },
  { type: 'tab.select', tabId: 2 },
  { type: 'filter.set', filter: 'approved' },
  { type: 'focus', questionId: 1 },
  { type: 'focus.next' },
  { type: 'focus.previous' },
  { type: 'presence.set', viewers: [{ id: '1', name: 'Ada Lovelace', email: 'ada@example.com' }] },
  { type: 'exports.changed' },
  { type: 'live.paused', paused: true },
  { type: 'rows.merge', change: changeOf([rowOf(1, {}, { text: 'No', status: 'edited' })]) },
  { type: 'candidate.select', questionId: 1, answerId: 10 },
  { type: 'question.delete', questionId: 1 },
  { type: 'undo' },
  { type: 'history.open' },
  { type: 'history.close' },
  { type: 'mapping.open', tab: 'Security' },
  { type: 'mapping.close' },
  { type: 'mapping.submit', tab: 'Security', mapping },
  { type: 'reanalyze' },
  { type: 'notice.close' },
  { type: 'generate' },
  { type: 'files.load' },
  { type: at('done', 'files.loading'), output: [{ id: 1, name: 'Policy.pdf' }] },
  { type: at('error', 'files.loading'), error: new Error('offline') },
  { type: 'generate.cancel' },
  { type: 'answer.consistency', answerId: 10 },
  { type: 'section.run', operation: 'shorten', tabId: 1 },
  { type: at('done', 'main.ready.starting'), output: questionnaireOf({ status: 'generating' }) },
  {
    type: at('error', 'main.ready.starting'),
    error: new Error('Answers are already being generated'),
  },
  { type: at('done', 'main.progress.cancelling'), output: questionnaireOf() },
  { type: at('error', 'main.progress.cancelling'), error: new Error('offline') },
  { type: at('done', 'main.loading'), output: ready },
  { type: at('done', 'main.loading'), output: analysing },
  { type: at('error', 'main.loading'), error: new Error('Questionnaire not found') },
  { type: at('done', 'main.progress.fetching'), output: analysing.questionnaire },
  { type: at('done', 'main.progress.fetching'), output: ready.questionnaire },
  { type: at('error', 'main.progress.fetching'), error: new Error('offline') },
  {
    type: at('done', 'main.ready.operating'),
    output: { change: changeOf([rowOf(1)]), deletedQuestionId: undefined, notice: 'Contradiction' },
  },
  { type: at('error', 'main.ready.operating'), error: new Error('There is nothing to undo') },
  { type: at('done', 'main.ready.reanalyzing'), output: analysing.questionnaire },
  { type: at('error', 'main.ready.reanalyzing'), error: new Error('The mapping is not valid') },
  { type: at('done', 'history.loading'), output: [] },
  { type: at('error', 'history.loading'), error: new Error('offline') },
  { type: at('done', 'notice.checking'), output: 500 },
  { type: at('done', 'notice.checking'), output: 0 },
  { type: at('error', 'notice.checking'), error: new Error('offline') },
]

/** A workspace whose questionnaire is read at once and whose live side stays quiet. */
const readyWorkspace = () =>
  createActor(
    questionnaireWorkspaceMachine.provide({
      actors: {
        live: quietLive,
        loadWorkspace: fromPromise(async () => ready),
        licenseNotice: fromPromise(async () => 0),
      },
    }),
    { input: { id: 7 } },
  ).start()

describe('questionnaireWorkspaceMachine', () => {
  testEveryPath(pending, events, {
    view,
    input: { id: 7 },
    // the tab, filter and focus are free values: the graph needs only where the machine is
    identity: (s) => [Boolean(s.context.previousRows)],
    timeoutMs: 30_000,
  })

  test('follows analysis progress, then shows the first tab with questions', async () => {
    let calls = 0
    const actor = createActor(
      questionnaireWorkspaceMachine.provide({
        actors: {
          live: quietLive,
          loadWorkspace: fromPromise(async () => (calls++ === 0 ? analysing : ready)),
          fetchQuestionnaire: fromPromise(async () => questionnaireOf()),
          licenseNotice: fromPromise(async () => 0),
        },
        delays: { POLL: 1 },
      }),
      { input: { id: 7 } },
    ).start()
    await new Promise((r) => setTimeout(r, 30))
    const snapshot = actor.getSnapshot()
    expect(snapshot.matches({ main: 'ready' })).toBe(true)
    expect(snapshot.context.tabId).toBe(1)
    expect(visibleRows(snapshot.context).map((row) => row.id)).toEqual([1, 2])
  })

  test('reads every answer again on refresh (carried forward), then follows the drafting', async () => {
    let calls = 0
    const generating = { ...ready, questionnaire: questionnaireOf({ status: 'generating' }) }
    const actor = createActor(
      questionnaireWorkspaceMachine.provide({
        actors: {
          live: quietLive,
          loadWorkspace: fromPromise(async () => (calls++ === 0 ? ready : generating)),
          fetchQuestionnaire: fromPromise(() => new Promise<Questionnaire>(() => {})),
          licenseNotice: fromPromise(async () => 0),
        },
      }),
      { input: { id: 7 } },
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(selectIsRead(actor.getSnapshot())).toBe(true)
    expect(selectHasCarried(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'refresh' })
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).toBe(2)
    expect(actor.getSnapshot().matches({ main: 'progress' })).toBe(true)
    expect(selectIsRead(actor.getSnapshot())).toBe(false)
  })

  test('deletes optimistically and puts the row back when the server refuses', async () => {
    let fail: (error: Error) => void = () => {}
    const failures: string[] = []
    const actor = createActor(
      questionnaireWorkspaceMachine.provide({
        actors: {
          live: quietLive,
          loadWorkspace: fromPromise(async () => ready),
          licenseNotice: fromPromise(async () => 0),
          runOperation: fromPromise<OperationResult, { id: number; operation: WorkspaceOperation }>(
            () =>
              new Promise((_, reject) => {
                fail = reject
              }),
          ),
        },
      }),
      { input: { id: 7 } },
    ).start()
    actor.on('operation.failed', (event) => failures.push(event.message))
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'question.delete', questionId: 1 })
    expect(actor.getSnapshot().context.rows.map((row) => row.id)).toEqual([2, 3])
    fail(new Error('Question not found'))
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.rows.map((row) => row.id)).toEqual([1, 2, 3])
    expect(failures).toEqual(['Question not found'])
  })

  test('tells the page when the live stream says an export finished (issue 37)', async () => {
    const told: string[] = []
    const actor = readyWorkspace()
    actor.on('exports.changed', (event) => told.push(event.type))
    actor.send({ type: 'exports.changed' })
    expect(told).toEqual(['exports.changed'])
    actor.stop()
  })

  test('offers the filter of answers resting on another product or party only where there are some (issue 38)', () => {
    const counts = new Map([
      ['all', 3],
      ['not_ours', 0],
    ] as const)
    expect(offeredFilters(counts, 'all')).not.toContain('not_ours')
    expect(offeredFilters(new Map([['not_ours', 1]]), 'all')).toContain('not_ours')
    expect(offeredFilters(counts, 'not_ours')).toContain('not_ours')
    const lead = rowOf(1, {}, { text: 'Yes', status: 'generated', flags: ['other_product'] })
    expect(passesFilter(lead, 'not_ours')).toBe(true)
    expect(passesFilter(rowOf(2, {}, { text: 'Yes', status: 'generated' }), 'not_ours')).toBe(false)
  })

  test('shows live updates paused while the live machine says so (issue 37)', async () => {
    const actor = readyWorkspace()
    expect(workspaceHeaderView.livePaused(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'live.paused', paused: true })
    expect(workspaceHeaderView.livePaused(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'live.paused', paused: false })
    expect(workspaceHeaderView.livePaused(actor.getSnapshot())).toBe(false)
    actor.stop()
  })

  test('filters like the server and merges changed rows in place', () => {
    const context = { rows, tabId: null, filter: 'unanswered' as const }
    expect(visibleRows(context).map((row) => row.id)).toEqual([1, 3])
    expect(visibleRows({ ...context, filter: 'approved' }).map((row) => row.id)).toEqual([2])
    const merged = mergeRows(rows, changeOf([rowOf(3, {}, { text: 'No', status: 'edited' })]), 1)
    expect(merged.map((row) => [row.id, row.answer.text])).toEqual([
      [2, 'Yes'],
      [3, 'No'],
    ])
    // an undone delete brings the question back to its place
    expect(mergeRows(merged, changeOf([rowOf(1)])).map((row) => row.id)).toEqual([1, 2, 3])
  })

  test('shows the license notice once when the license limits answers', async () => {
    let shown = 0
    const actor = createActor(
      questionnaireWorkspaceMachine.provide({
        actors: {
          live: quietLive,
          loadWorkspace: fromPromise(async () => ready),
          licenseNotice: fromPromise(async () => 500),
        },
        actions: { noticeShown: () => void shown++ },
      }),
      { input: { id: 7 } },
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().matches({ notice: 'open' })).toBe(true)
    expect(actor.getSnapshot().context.maxAnswers).toBe(500)
    expect(shown).toBe(1)
    actor.send({ type: 'notice.close' })
    expect(actor.getSnapshot().matches({ notice: 'closed' })).toBe(true)
  })
})
