import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Activity } from '../../contract/collaboration.ts'
import type {
  CheckFilledFile,
  Questionnaire,
  SectionPreview,
} from '../../contract/questionnaires.ts'
import { questionnaireActivityMachine } from '../../machines/questionnaire-activity/index.ts'
import { questionnaireExportMachine } from '../../machines/questionnaire-export/index.ts'
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
  workspacePageView,
} from '../../machines/questionnaire-workspace/index.ts'
import {
  type PreviewSectionInput,
  sectionPreviewMachine,
} from '../../machines/section-preview/index.ts'
import { changeOf, questionnaireOf, rowOf, tabOf } from '../fixtures/answer-rows.ts'
import { quietChildren, workspaceWith } from '../fixtures/workspace-children.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(questionnaireWorkspaceMachine, quietChildren)
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
  { type: 'carry.done' },
  { type: at('done', 'history.loading'), output: [] },
  { type: at('error', 'history.loading'), error: new Error('offline') },
  { type: at('done', 'notice.checking'), output: 500 },
  { type: at('done', 'notice.checking'), output: 0 },
  { type: at('error', 'notice.checking'), error: new Error('offline') },
]

/**
 * The answer sheet, the custom instruction and the question to delete: regions of their own,
 * explored apart from the loading and operations above (their every combination adds nothing).
 */
const modes: AnyEventObject[] = [
  { type: 'question.open', questionId: 2 },
  { type: 'sheet.open' },
  { type: 'sheet.close' },
  { type: 'delete.ask', questionId: 1 },
  { type: 'delete.confirm' },
  { type: 'delete.cancel' },
  { type: 'custom.open' },
  { type: 'custom.close' },
  { type: 'custom.submit', instruction: 'Use British spelling' },
]

/** What the workspace is told by its children and views, in any state: no state changes. */
const told: AnyEventObject[] = [
  { type: 'section.preview', operation: 'shorten', tabId: 1 },
  { type: 'assign.open', questionId: null },
  { type: 'comments.count', questionId: 1, open: 2 },
  { type: 'library.saved', created: true },
  { type: 'export.done', fileName: 'Vendor assessment (filled).xlsx' },
  { type: 'export.failed', message: 'The export failed' },
  { type: 'assignment.done', count: 3, unassigned: false },
]

/** A workspace whose questionnaire is read at once and whose live side stays quiet. */
type Actors = Parameters<typeof workspaceWith>[0]['actors']

/** A workspace whose questionnaire is read at once, with quiet children unless `actors` says. */
const readyWorkspace = (actors: Actors = {}) =>
  createActor(
    workspaceWith({
      actors: {
        loadWorkspace: fromPromise(async () => ready),
        licenseNotice: fromPromise(async () => 0),
        ...actors,
      },
    }),
    { input: { id: 7 } },
  ).start()

/** A runOperation that keeps each operation asked for and answers `result`. */
const recording = (
  operations: WorkspaceOperation[],
  result: OperationResult = { change: changeOf([]) },
) =>
  fromPromise<OperationResult, { id: number; operation: WorkspaceOperation }>(async ({ input }) => {
    operations.push(input.operation)
    return result
  })

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('questionnaireWorkspaceMachine', () => {
  testEveryPath(pending, events, {
    apart: [modes, told],
    view,
    input: { id: 7 },
    // the tab, filter and focus are free values: the graph needs only where the machine is
    identity: (s) => [Boolean(s.context.previousRows)],
    timeoutMs: 30_000,
  })

  test('follows analysis progress, then shows the first tab with questions', async () => {
    let calls = 0
    const actor = createActor(
      workspaceWith({
        actors: {
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
      workspaceWith({
        actors: {
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
      workspaceWith({
        actors: {
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
    actor.on('toast', (event) => failures.push(`${event.toast.type}: ${event.toast.title}`))
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'question.delete', questionId: 1 })
    expect(actor.getSnapshot().context.rows.map((row) => row.id)).toEqual([2, 3])
    fail(new Error('Question not found'))
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.rows.map((row) => row.id)).toEqual([1, 2, 3])
    expect(failures).toEqual(['error: Question not found'])
  })

  test('has the Export menu check again when the live stream says an export finished (issue 37)', async () => {
    let checks = 0
    const actor = readyWorkspace({
      exports: questionnaireExportMachine.provide({
        actors: {
          checkFilled: fromPromise<CheckFilledFile, { id: number }>(async () => {
            checks += 1
            return {
              exists: false,
              current: false,
              filled_file: null,
              approved_only_default: false,
            }
          }),
        },
      }),
    })
    await tick()
    const before = checks
    actor.send({ type: 'exports.changed' })
    await tick()
    expect(checks).toBe(before + 1)
    actor.stop()
  })

  test('tells the Export menu each new revision, and the carry offer once the questionnaire is read (issue 43)', async () => {
    const actor = readyWorkspace()
    await tick()
    const { exports, carry } = actor.getSnapshot().children
    expect(exports?.getSnapshot().context.revision).toBe(ready.questionnaire.revision)
    // not carried from an earlier one: the offer looks for one
    expect(carry?.getSnapshot().value).toBe('looking')
    const change = changeOf([rowOf(1, {}, { text: 'No', status: 'edited' })])
    const next = { ...change, questionnaire: { ...change.questionnaire, revision: 12 } }
    actor.send({ type: 'rows.merge', change: next })
    expect(exports?.getSnapshot().context.revision).toBe(12)
    actor.stop()
  })

  test('reads the activity when the history opens, runs a confirmed section operation and words the children’s toasts (issue 43)', async () => {
    let activityReads = 0
    const operations: WorkspaceOperation[] = []
    const toasts: string[] = []
    const actor = readyWorkspace({
      runOperation: recording(operations),
      activity: questionnaireActivityMachine.provide({
        actors: {
          loadActivity: fromPromise<Activity[], { id: number }>(async () => {
            activityReads += 1
            return []
          }),
        },
      }),
      sections: sectionPreviewMachine.provide({
        actors: {
          previewSection: fromPromise<SectionPreview, PreviewSectionInput>(async () => ({
            changes: [
              {
                question_id: 2,
                ref: 'SEC-02',
                question: 'Do you meet security requirement 2?',
                before: { text: 'Yes. Reviewed quarterly.', choice: 'Yes' },
                after: { text: 'Yes.', choice: 'Yes' },
              },
            ],
            contradictions: [],
          })),
        },
      }),
    })
    actor.on('toast', (event) => toasts.push(`${event.toast.type}: ${event.toast.title}`))
    await tick()
    actor.send({ type: 'history.open' })
    await tick()
    expect(activityReads).toBe(1)
    // a section operation from the menu is previewed by the sections child
    actor.send({ type: 'section.preview', operation: 'shorten', tabId: 1 })
    await tick()
    expect(actor.getSnapshot().children.sections?.getSnapshot().context.request).toEqual({
      operation: 'shorten',
      tabId: 1,
      instruction: undefined,
    })
    actor.getSnapshot().children.sections?.send({ type: 'cancel' })
    actor.send({ type: 'custom.open' })
    actor.send({ type: 'custom.submit', instruction: 'Use British spelling' })
    expect(actor.getSnapshot().matches({ custom: 'closed' })).toBe(true)
    await tick()
    const sections = actor.getSnapshot().children.sections
    expect(sections?.getSnapshot().value).toBe('reviewing')
    sections?.send({ type: 'confirm' })
    await tick()
    expect(operations).toEqual([
      { kind: 'section', operation: 'custom', tabId: 1, instruction: 'Use British spelling' },
    ])
    actor.send({ type: 'assignment.done', count: 1, unassigned: false })
    actor.send({ type: 'export.done', fileName: 'Vendor assessment.xlsx' })
    actor.send({ type: 'library.saved', created: false })
    expect(toasts).toEqual([
      'success: Undone',
      'success: Assigned 1 question',
      'success: Exported Vendor assessment.xlsx',
      'success: Library answer updated',
    ])
    actor.stop()
  })

  test('asks before deleting a question, and opens the focused answer’s sheet (issue 43)', async () => {
    const operations: WorkspaceOperation[] = []
    const actor = readyWorkspace({
      runOperation: recording(operations, { change: changeOf([]), deletedQuestionId: 1 }),
    })
    await tick()
    actor.send({ type: 'sheet.open' })
    expect(workspacePageView.sheetOpen(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'question.open', questionId: 2 })
    expect(workspacePageView.sheetOpen(actor.getSnapshot())).toBe(true)
    expect(workspacePageView.focused(actor.getSnapshot())?.id).toBe(2)
    actor.send({ type: 'delete.ask', questionId: 1 })
    expect(workspacePageView.deleting(actor.getSnapshot())?.id).toBe(1)
    actor.send({ type: 'delete.cancel' })
    expect(workspacePageView.deleting(actor.getSnapshot())).toBe(null)
    expect(operations).toEqual([])
    actor.send({ type: 'delete.ask', questionId: 1 })
    actor.send({ type: 'delete.confirm' })
    await tick()
    expect(operations).toEqual([{ kind: 'delete', questionId: 1 }])
    expect(actor.getSnapshot().context.rows.map((row) => row.id)).toEqual([2, 3])
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
      workspaceWith({
        actors: {
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
