import { describe, expect, it } from 'vitest'
import { questionnaireRow, uploadRow } from '../../machines/questionnaire-list/index.ts'
import type { UploadRow } from '../../machines/questionnaire-list/questionnaire-list.types.ts'
import { questionnaireOf } from '../fixtures/answer-rows.ts'

/** Issue 43: the questionnaire list's rows come ready from the machine's view, not decided in JSX. */
describe('a questionnaire’s row', () => {
  it('shows how much is answered once read, and a job’s progress while it runs', () => {
    const ready = questionnaireRow(questionnaireOf({ questions: 4, answered: 3 }), {
      checked: true,
    })
    expect(ready).toMatchObject({
      checked: true,
      status: { label: 'Ready', tone: 'green' },
      progress: null,
      answered: '75% answered',
      counts: '4 questions · 3 answered',
      checkMapping: false,
      error: null,
    })
    const drafting = questionnaireRow(
      questionnaireOf({ status: 'generating', progress: 40, progress_label: 'Drafting 4 of 10' }),
      { checked: false },
    )
    expect(drafting.progress).toEqual({ value: 40, label: 'Drafting 4 of 10' })
    expect(drafting.answered).toBe('—')
    // a job without words of its own is named by its status
    const queued = questionnaireRow(questionnaireOf({ status: 'queued', progress_label: null }), {
      checked: false,
    })
    expect(queued.progress?.label).toBe('Queued')
  })

  it('says a failed analysis’s error, a mapping to check, and a portal’s address without its scheme', () => {
    const failed = questionnaireRow(
      questionnaireOf({ status: 'failed', error: 'The questionnaire could not be read' }),
      { checked: false },
    )
    expect(failed.status).toEqual({ label: 'Failed', tone: 'red' })
    expect(failed.error).toBe('The questionnaire could not be read')
    // an error left from an earlier run shows only while the questionnaire is failed
    expect(questionnaireRow(questionnaireOf({ error: 'old' }), { checked: false }).error).toBe(null)
    expect(
      questionnaireRow(questionnaireOf({ unsure_tabs: 1 }), { checked: false }).checkMapping,
    ).toBe(true)
    expect(
      questionnaireRow(questionnaireOf({ unsure_tabs: 1, status: 'analyzing' }), { checked: false })
        .checkMapping,
    ).toBe(false)
    const portal = questionnaireRow(
      questionnaireOf({ portal_url: 'https://vendors.example.com/assess?id=4' }),
      { checked: false },
    )
    expect(portal.portal).toBe('vendors.example.com/assess?id=4')
  })
})

describe('an upload’s row', () => {
  const upload = (over: Partial<UploadRow>): UploadRow => ({
    key: 'a',
    name: 'CAIQ.xlsx',
    progress: 0,
    status: 'waiting',
    error: null,
    source: { name: 'CAIQ.xlsx', size: 1024 },
    productId: null,
    work: { customer_name: '', due_date: '', owner_id: '' },
    ...over,
  })

  it('waits, shows how much is sent, or shows its error to dismiss', () => {
    expect(uploadRow(upload({})).progress).toEqual({ value: null, label: 'Waiting' })
    expect(uploadRow(upload({ status: 'uploading', progress: 60 })).progress).toEqual({
      value: 60,
      label: 'Uploading',
    })
    expect(uploadRow(upload({ status: 'failed', error: 'Too large' }))).toMatchObject({
      progress: null,
      error: 'Too large',
    })
  })
})
