import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fromCallback, fromPromise } from 'xstate'
import type { Questionnaire } from '../../contract/questionnaires.ts'
import type {
  QuestionnaireListEvents,
  UploadInput,
} from '../../machines/questionnaire-list/index.ts'
import { ToasterContext } from '../../src/app/toaster.tsx'
import QuestionnairesPage, {
  createQuestionnaireListLogic,
} from '../../src/pages/questionnaires/questionnaires-page.tsx'
import { questionnaireOf } from '../fixtures/answer-rows.ts'

vi.mock('@tanstack/react-router', () => ({
  Link: (props: { children: React.ReactNode; className?: string }) => (
    <a href="#questionnaire" className={props.className}>
      {props.children}
    </a>
  ),
}))

const logic = (items: Questionnaire[], deleted: number[][] = []) =>
  createQuestionnaireListLogic({
    loadQuestionnaires: fromPromise<{ count: number; results: Questionnaire[] }, void>(
      async () => ({ count: items.length, results: items }),
    ),
    deleteQuestionnaires: fromPromise<number, { ids: number[] }>(async ({ input }) => {
      deleted.push(input.ids)
      return input.ids.length
    }),
    uploadQuestionnaire: fromCallback<QuestionnaireListEvents, UploadInput>(
      ({ input, sendBack }) => {
        sendBack({
          type: 'upload.failed',
          key: input.key,
          error: 'Your license limits the number of questionnaires to 5.',
        })
      },
    ),
  })

const renderPage = (machine: ReturnType<typeof logic>) =>
  render(
    <ToasterContext.Provider>
      <QuestionnairesPage logic={machine} />
    </ToasterContext.Provider>,
  )

describe('questionnaires page', () => {
  it('shows the empty state with the upload button', async () => {
    renderPage(logic([]))
    expect(await screen.findByText('No questionnaires yet')).toBeTruthy()
    expect(screen.getAllByRole('button', { name: 'Upload questionnaire' }).length).toBeGreaterThan(
      0,
    )
  })

  it('lists questionnaires with status, counts and failures, and deletes behind a confirmation', async () => {
    const deleted: number[][] = []
    renderPage(
      logic(
        [
          questionnaireOf({
            id: 1,
            name: 'CAIQ.xlsx',
            questions: 261,
            answered: 200,
            approved: 12,
          }),
          questionnaireOf({
            id: 2,
            name: 'Broken.pdf',
            status: 'failed',
            error: 'The PDF is password-protected',
          }),
        ],
        deleted,
      ),
    )
    const rows = await screen.findAllByTestId('questionnaire-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0] as HTMLElement).getByText('261')).toBeTruthy()
    expect(within(rows[1] as HTMLElement).getByText('The PDF is password-protected')).toBeTruthy()
    fireEvent.click(within(rows[0] as HTMLElement).getByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: /Delete selected/ }))
    const confirm = await screen.findByRole('alertdialog')
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual([[1]]))
  })

  it('shows a refused upload in the server’s words', async () => {
    renderPage(logic([]))
    await screen.findByText('No questionnaires yet')
    const picker = screen.getByTestId('questionnaire-picker') as HTMLInputElement
    fireEvent.change(picker, {
      target: { files: [new File(['x'], 'vendor.xlsx')] },
    })
    expect(
      await screen.findByText('Your license limits the number of questionnaires to 5.'),
    ).toBeTruthy()
  })
})
