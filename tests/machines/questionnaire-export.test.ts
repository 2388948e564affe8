import { describe, expect, test, vi } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { CheckFilledFile, ExportRun, FilledFile } from '../../contract/questionnaires.ts'
import { EXPORT_PROGRESS_POLL_MS } from '../../machines/constants.ts'
import * as view from '../../machines/questionnaire-export/index.ts'
import {
  questionnaireExportMachine,
  selectExportRun,
} from '../../machines/questionnaire-export/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'
import { exportStarts, noFilledFileYet } from './export-fixtures.ts'

const pending = pendingActors(questionnaireExportMachine)
const file: FilledFile = {
  id: 4,
  questionnaire_id: 7,
  name: 'Vendor (filled).xlsx',
  format: 'original',
  size: 1000,
  revision: 3,
  current: true,
  answers_written: 12,
  created_at: '2026-11-20T10:00:00.000Z',
}
const run = (status: ExportRun['status'], extra: Partial<ExportRun> = {}): ExportRun => ({
  id: 11,
  status,
  progress: status === 'done' ? 100 : status === 'running' ? 40 : 0,
  label:
    status === 'running' ? 'Writing the file' : status === 'queued' ? 'Waiting to start' : null,
  questionnaire_id: 7,
  format: 'original',
  filled_file: status === 'done' ? file : null,
  error: status === 'failed' ? 'The file could not be written. Export again.' : null,
  ...extra,
  approved_only: extra.approved_only ?? false,
})
const at = (kind: 'done' | 'error', state: string) =>
  `xstate.${kind}.actor.0.questionnaireExport.${state}`
const events: AnyEventObject[] = [
  { type: 'refresh' },
  { type: 'revision', revision: 3 },
  { type: 'revision', revision: 4 },
  { type: 'export', format: 'original' },
  { type: 'export', format: 'original', approvedOnly: true },
  { type: 'download.latest' },
  { type: 'retry' },
  { type: 'dismiss' },
  { type: at('done', 'checking'), output: { exists: true, current: true, filled_file: file } },
  { type: at('done', 'checking'), output: { exists: false, current: false, filled_file: null } },
  { type: at('error', 'checking'), error: new Error('offline') },
  { type: at('done', 'exporting'), output: run('queued') },
  { type: at('done', 'exporting'), output: run('done') },
  { type: at('done', 'exporting'), output: run('failed') },
  { type: at('error', 'exporting'), error: new Error('Questionnaire not found') },
  { type: at('done', 'polling'), output: run('running') },
  { type: at('done', 'polling'), output: run('done') },
  { type: at('done', 'polling'), output: run('failed') },
  { type: at('error', 'polling'), error: new Error('offline') },
  { type: at('done', 'downloading'), output: undefined },
  { type: at('error', 'downloading'), error: new Error('offline') },
]

describe('questionnaireExportMachine', () => {
  testEveryPath(pending, events, {
    view,
    input: { id: 7 },
    identity: (s) => [
      Boolean(s.context.latest),
      s.context.format,
      Boolean(s.context.error),
      s.context.revision,
      s.context.run?.status ?? null,
    ],
  })

  test('starts an export, follows its run every EXPORT_POLL while it runs, then downloads its file', async () => {
    vi.useFakeTimers()
    try {
      const downloaded: FilledFile[] = []
      const asked: number[] = []
      const statuses: ExportRun[] = [run('running'), run('done', { format: 'csv' })]
      const actor = createActor(
        questionnaireExportMachine.provide({
          actors: {
            checkFilled: noFilledFileYet(),
            startExport: exportStarts(async (input) => run('queued', { format: input.format })),
            loadExport: fromPromise<ExportRun, { runId: number }>(async ({ input }) => {
              asked.push(input.runId)
              return statuses.shift() as ExportRun
            }),
            downloadFilled: fromPromise(async ({ input }: { input: { file: FilledFile } }) => {
              downloaded.push(input.file)
            }),
          },
        }),
        { input: { id: 7 } },
      ).start()
      await vi.advanceTimersByTimeAsync(0)
      actor.send({ type: 'export', format: 'csv' })
      await vi.advanceTimersByTimeAsync(0)
      expect(actor.getSnapshot().value).toBe('waiting')
      expect(selectExportRun(actor.getSnapshot())?.status).toBe('queued')
      await vi.advanceTimersByTimeAsync(EXPORT_PROGRESS_POLL_MS)
      expect(asked).toEqual([11])
      expect(selectExportRun(actor.getSnapshot())).toMatchObject({
        status: 'running',
        progress: 40,
        label: 'Writing the file',
      })
      expect(downloaded).toEqual([])
      await vi.advanceTimersByTimeAsync(EXPORT_PROGRESS_POLL_MS)
      expect(asked).toEqual([11, 11])
      expect(downloaded.map((f) => f.id)).toEqual([4])
      expect(actor.getSnapshot().value).toBe('idle')
      expect(actor.getSnapshot().context.latest?.id).toBe(4)
      expect(selectExportRun(actor.getSnapshot())).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  test('a run that failed says why; a retry while the run is unfinished asks for it again', async () => {
    const failures: string[] = []
    let started = 0
    let load: () => Promise<ExportRun> = async () => {
      throw new Error('offline')
    }
    const actor = createActor(
      questionnaireExportMachine.provide({
        actors: {
          checkFilled: noFilledFileYet(),
          startExport: exportStarts(async () => {
            started += 1
            return run('queued')
          }),
          loadExport: fromPromise<ExportRun, { runId: number }>(() => load()),
        },
        delays: { EXPORT_POLL: 1 },
      }),
      { input: { id: 7 } },
    ).start()
    actor.on('failed', (event) => failures.push(event.message))
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'export', format: 'original' })
    await new Promise((r) => setTimeout(r, 10))
    expect(actor.getSnapshot().value).toBe('failed')
    expect(failures).toEqual(['offline'])
    load = async () => run('failed')
    actor.send({ type: 'retry' })
    await new Promise((r) => setTimeout(r, 5))
    expect(started).toBe(1)
    expect(actor.getSnapshot().value).toBe('failed')
    expect(failures).toEqual(['offline', 'The file could not be written. Export again.'])
    // the run is over: a retry starts another
    actor.send({ type: 'retry' })
    await new Promise((r) => setTimeout(r, 10))
    expect(started).toBe(2)
    actor.stop()
  })

  test('checks the latest file again on each new revision, once', async () => {
    let checks = 0
    const actor = createActor(
      questionnaireExportMachine.provide({
        actors: {
          checkFilled: fromPromise<CheckFilledFile, { id: number }>(async () => {
            checks += 1
            return {
              exists: true,
              current: false,
              filled_file: { ...file, current: false },
              approved_only_default: false,
            }
          }),
        },
      }),
      { input: { id: 7 } },
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(checks).toBe(1)
    actor.send({ type: 'revision', revision: null })
    actor.send({ type: 'revision', revision: 5 })
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'revision', revision: 5 })
    await new Promise((r) => setTimeout(r, 0))
    expect(checks).toBe(2)
    actor.send({ type: 'revision', revision: 6 })
    // told while checking: remembered, no second check
    actor.send({ type: 'revision', revision: 7 })
    await new Promise((r) => setTimeout(r, 0))
    expect(checks).toBe(3)
    expect(actor.getSnapshot().context.revision).toBe(7)
    expect(actor.getSnapshot().context.latest?.current).toBe(false)
  })
})

describe('approved only (issue 39)', () => {
  test("the export says what it was asked, and otherwise leaves it to the organisation's default", async () => {
    const asked: (boolean | null)[] = []
    const actor = createActor(
      questionnaireExportMachine.provide({
        actors: {
          checkFilled: fromPromise<CheckFilledFile, { id: number }>(async () => ({
            exists: false,
            current: false,
            filled_file: null,
            approved_only_default: true,
          })),
          startExport: exportStarts(async (input) => {
            asked.push(input.approvedOnly)
            return new Promise(() => {})
          }),
        },
      }),
      { input: { id: 7 } },
    ).start()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().context.approvedOnlyDefault).toBe(true)
    actor.send({ type: 'export', format: 'original', approvedOnly: false })
    await new Promise((resolve) => setTimeout(resolve, 0))
    actor.send({ type: 'dismiss' })
    expect(asked).toEqual([false])
  })
})
