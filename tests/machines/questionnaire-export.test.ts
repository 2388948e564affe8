import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { CheckFilledFile, ExportFormat, FilledFile } from '../../contract/questionnaires.ts'
import { questionnaireExportMachine } from '../../machines/questionnaire-export/index.ts'
import { testEveryPath } from './every-path.ts'
import { noFilledFileYet } from './export-fixtures.ts'

const never = <O, I>() => fromPromise<O, I>(() => new Promise(() => {}))
const pending = questionnaireExportMachine.provide({
  actors: {
    checkFilled: never<CheckFilledFile, { id: number }>(),
    exportFile: never<FilledFile, { id: number; format: ExportFormat }>(),
    downloadFilled: never<void, { file: FilledFile }>(),
  },
})
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
const at = (kind: 'done' | 'error', state: string) =>
  `xstate.${kind}.actor.0.questionnaireExport.${state}`
const events: AnyEventObject[] = [
  { type: 'refresh' },
  { type: 'revision', revision: 3 },
  { type: 'revision', revision: 4 },
  { type: 'export', format: 'original' },
  { type: 'download.latest' },
  { type: 'retry' },
  { type: 'dismiss' },
  { type: at('done', 'checking'), output: { exists: true, current: true, filled_file: file } },
  { type: at('done', 'checking'), output: { exists: false, current: false, filled_file: null } },
  { type: at('error', 'checking'), error: new Error('offline') },
  { type: at('done', 'exporting'), output: file },
  { type: at('error', 'exporting'), error: new Error('Questionnaire not found') },
  { type: at('done', 'downloading'), output: undefined },
  { type: at('error', 'downloading'), error: new Error('offline') },
]

describe('questionnaireExportMachine', () => {
  testEveryPath(pending, events, {
    input: { id: 7 },
    identity: (s) => [
      Boolean(s.context.latest),
      s.context.format,
      Boolean(s.context.error),
      s.context.revision,
    ],
  })

  test('exports, then downloads what it wrote', async () => {
    const downloaded: FilledFile[] = []
    const actor = createActor(
      questionnaireExportMachine.provide({
        actors: {
          checkFilled: noFilledFileYet(),
          exportFile: fromPromise<FilledFile, { id: number; format: ExportFormat }>(
            async ({ input }) => ({
              ...file,
              format: input.format,
            }),
          ),
          downloadFilled: fromPromise(async ({ input }: { input: { file: FilledFile } }) => {
            downloaded.push(input.file)
          }),
        },
      }),
      { input: { id: 7 } },
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'export', format: 'csv' })
    await new Promise((r) => setTimeout(r, 0))
    expect(downloaded.map((f) => f.format)).toEqual(['csv'])
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.latest?.format).toBe('csv')
  })

  test('checks the latest file again on each new revision, once', async () => {
    let checks = 0
    const actor = createActor(
      questionnaireExportMachine.provide({
        actors: {
          checkFilled: fromPromise<CheckFilledFile, { id: number }>(async () => {
            checks += 1
            return { exists: true, current: false, filled_file: { ...file, current: false } }
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
