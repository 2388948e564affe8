import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromCallback, fromPromise } from 'xstate'
import type { Questionnaire } from '../../contract/questionnaires.ts'
import * as view from '../../machines/questionnaire-list/index.ts'
import {
  DEFAULT_FILTERS,
  isFiltered,
  listQuery,
  type QuestionnaireFilters,
  type QuestionnaireListEvents,
  questionnaireListMachine,
  refusal,
  type UploadInput,
} from '../../machines/questionnaire-list/index.ts'
import { questionnaireOf } from '../fixtures/answer-rows.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

type List = { count: number; results: Questionnaire[] }
const pending = pendingActors(questionnaireListMachine)
const at = (kind: 'done' | 'error', state: string) =>
  `xstate.${kind}.actor.0.questionnaireList.${state}`
const ready = { count: 1, results: [questionnaireOf()] }
const running = { count: 1, results: [questionnaireOf({ status: 'analyzing', progress: 30 })] }
const file = { name: 'vendor.xlsx', size: 2048 }
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'refresh' },
  { type: 'toggle', id: 7 },
  { type: 'toggle.all' },
  { type: 'delete.request', ids: [] },
  { type: 'delete.request', ids: [7] },
  { type: 'delete.confirm' },
  { type: 'delete.cancel' },
  { type: 'files.add', files: [file] },
  { type: 'files.add', files: [{ name: 'notes.txt', size: 10 }] },
  { type: 'upload.dismiss', key: 'u1' },
  { type: 'product.choose', productId: 3 },
  { type: 'uploadWork.change', field: 'customer_name', value: 'Northwind' },
  { type: 'upload.progress', key: 'u1', progress: 50 },
  { type: 'upload.done', key: 'u1', questionnaire: questionnaireOf({ id: 8, status: 'queued' }) },
  {
    type: 'upload.failed',
    key: 'u1',
    error: 'Your license limits the number of questionnaires to 5.',
  },
  { type: 'filter.set', filters: { overdue: true } },
  { type: 'filter.clear' },
  { type: 'work.saved', questionnaire: questionnaireOf({ work_status: 'sent' }) },
  { type: at('done', 'list.loading'), output: ready },
  { type: at('done', 'list.loading'), output: running },
  { type: at('error', 'list.loading'), error: new Error('offline') },
  { type: at('done', 'deletion.deleting'), output: 1 },
  { type: at('error', 'deletion.deleting'), error: new Error('offline') },
]

describe('questionnaireListMachine', () => {
  testEveryPath(pending, events, {
    view,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(view.selectIsLoading(s)).toBe(s.hasTag('loading') && !s.context.loaded)
    },
    input: { maxUploadMb: 50 },
    identity: (s) => [
      s.context.items.length > 0,
      s.context.uploads.some((row) => row.status === 'failed'),
      s.context.selected.length > 0,
    ],
  })

  test('refuses what the server would refuse, in its words', () => {
    expect(refusal({ name: 'notes.txt', size: 10 }, 50)).toBe(
      'notes.txt is not a supported questionnaire. Upload an Excel (.xlsx), CSV, Word (.docx) or PDF file.',
    )
    expect(refusal({ name: 'big.xlsx', size: 60 * 1024 * 1024 }, 50)).toBe(
      'big.xlsx is larger than the 50 MB limit',
    )
    expect(refusal(file, 50)).toBeNull()
  })

  test('uploads one file after another and follows analysis until nothing runs', async () => {
    const sent: string[] = []
    let calls = 0
    const actor = createActor(
      questionnaireListMachine.provide({
        actors: {
          loadQuestionnaires: fromPromise<List, QuestionnaireFilters>(async () =>
            calls++ < 2 ? running : ready,
          ),
          uploadQuestionnaire: fromCallback<QuestionnaireListEvents, UploadInput>(
            ({ input, sendBack }) => {
              sent.push(
                `${input.source.name}:${input.productId}:${input.fields.customer_name}:${input.fields.due_date}`,
              )
              setTimeout(() =>
                sendBack({
                  type: 'upload.done',
                  key: input.key,
                  questionnaire: questionnaireOf({ id: sent.length + 10, name: input.source.name }),
                }),
              )
            },
          ),
        },
        delays: { POLL: 1 },
      }),
      { input: {} },
    ).start()
    // each file goes for the product chosen when it was added
    // and with the customer and due date asked when it was added (issue 39)
    actor.send({ type: 'product.choose', productId: 3 })
    actor.send({ type: 'uploadWork.change', field: 'customer_name', value: 'Northwind' })
    actor.send({ type: 'uploadWork.change', field: 'due_date', value: '2027-01-15' })
    actor.send({ type: 'files.add', files: [file] })
    actor.send({ type: 'product.choose', productId: null })
    actor.send({ type: 'uploadWork.change', field: 'customer_name', value: '' })
    actor.send({ type: 'files.add', files: [{ name: 'second.csv', size: 10 }] })
    await new Promise((r) => setTimeout(r, 40))
    expect(sent).toEqual(['vendor.xlsx:3:Northwind:2027-01-15', 'second.csv:null::2027-01-15'])
    expect(actor.getSnapshot().context.uploads).toEqual([])
    expect(actor.getSnapshot().matches({ list: 'idle' })).toBe(true)
    expect(calls).toBeGreaterThanOrEqual(3)
  })

  test('fetches again with each filter, and the query carries only what narrows or orders', async () => {
    const asked: QuestionnaireFilters[] = []
    const actor = createActor(
      questionnaireListMachine.provide({
        actors: {
          loadQuestionnaires: fromPromise<List, QuestionnaireFilters>(async ({ input }) => {
            asked.push(input)
            return ready
          }),
        },
      }),
      { input: {} },
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'filter.set', filters: { work_status: 'in_review', owner: 'me' } })
    actor.send({ type: 'filter.set', filters: { overdue: true, order: 'due_date', product: 3 } })
    await new Promise((r) => setTimeout(r, 0))
    const last = asked.at(-1) as QuestionnaireFilters
    expect(last).toEqual({
      work_status: 'in_review',
      owner: 'me',
      customer_id: null,
      overdue: true,
      order: 'due_date',
      product: 3,
    })
    expect(listQuery(last)).toEqual({
      page_size: 200,
      work_status: 'in_review',
      owner: 'me',
      overdue: 'true',
      order: 'due_date',
      product: 3,
    })
    expect(listQuery({ ...DEFAULT_FILTERS, product: 'none' })).toEqual({
      page_size: 200,
      product: 'none',
    })
    expect(isFiltered(last)).toBe(true)
    expect(listQuery(DEFAULT_FILTERS)).toEqual({ page_size: 200 })
    expect(isFiltered({ ...DEFAULT_FILTERS, order: 'name' })).toBe(false)
    actor.send({ type: 'filter.clear' })
    await new Promise((r) => setTimeout(r, 0))
    expect(asked.at(-1)).toEqual(DEFAULT_FILTERS)
  })
})
