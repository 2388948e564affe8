/**
 * The questionnaire page under test (tests/ui/questionnaire-*.test.tsx): the workspace with fake
 * actors for itself and each of its children, the answer panel's machines, and the page rendered
 * in a session and a toaster. `pageLogic` also collects what each fake was asked to do.
 */
import { render } from '@testing-library/react'
import { fromPromise } from 'xstate'
import type {
  Activity,
  AssignRequest,
  Comment,
  Person,
  ReviewActionRequest,
} from '../../contract/collaboration.ts'
import type { Product } from '../../contract/products.ts'
import type {
  AnswerChange,
  CarryForwardResponse,
  ExportRun,
  FilledFile,
  Operation,
  PreviousMatch,
  Questionnaire,
  SectionPreview,
} from '../../contract/questionnaires.ts'
import { answerMachine, type SaveAnswerInput } from '../../machines/answer/index.ts'
import { assignmentMachine } from '../../machines/assignment/index.ts'
import { carryForwardMachine } from '../../machines/carry-forward/index.ts'
import { type CommentAction, commentThreadMachine } from '../../machines/comment-thread/index.ts'
import {
  type AssignProductInput,
  productChoiceMachine,
} from '../../machines/product-choice/index.ts'
import { questionReviewMachine } from '../../machines/question-review/index.ts'
import { questionnaireActivityMachine } from '../../machines/questionnaire-activity/index.ts'
import { questionnaireExportMachine } from '../../machines/questionnaire-export/index.ts'
import {
  type OperationResult,
  questionnaireWorkspaceMachine,
  type WorkspaceData,
  type WorkspaceOperation,
} from '../../machines/questionnaire-workspace/index.ts'
import {
  type PreviewSectionInput,
  sectionPreviewMachine,
} from '../../machines/section-preview/index.ts'
import { SessionContext } from '../../src/app/session.tsx'
import { ToasterContext } from '../../src/app/toaster.tsx'
import { QuestionnaireWorkspace } from '../../src/pages/questionnaire/questionnaire-page.tsx'
import { changeOf, questionnaireOf, quietLive, rowOf, tabOf } from '../fixtures/answer-rows.ts'
import { commentOf, people } from '../fixtures/comments.ts'
import { exportStarts, noFilledFileYet } from '../machines/export-fixtures.ts'
import { readingSession } from '../support/ui-session.ts'

export const data: WorkspaceData = {
  questionnaire: questionnaireOf({ questions: 3 }),
  tabs: [tabOf(1), tabOf(2, { name: 'Privacy', questions: 1 })],
  rows: [
    rowOf(1),
    rowOf(
      2,
      {},
      {
        text: 'Reviewed quarterly.',
        choice: 'Yes',
        status: 'generated',
        confidence: 0.91,
        band: 'high',
        citations: [
          {
            source: 'file',
            id: 4,
            title: 'Access policy.pdf',
            snippet: 'Access rights are reviewed every quarter.',
          },
        ],
      },
    ),
    rowOf(3, {
      tab_id: 2,
      tab: 'Privacy',
      ref: 'PRV-01',
      text: 'Do you appoint a data protection officer?',
    }),
  ],
}

export function pageLogic(
  options: {
    notice?: number
    save?: (input: SaveAnswerInput) => Promise<AnswerChange>
    data?: WorkspaceData
    previous?: PreviousMatch[]
    carried?: CarryForwardResponse
    /** Each question's comments; absent: they are still being read. */
    comments?: Comment[]
    /** The run an export starts (and stays at); absent: starting one fails. */
    exportRun?: ExportRun
    /** The live side; quiet (never opens) when absent. */
    live?: typeof quietLive
    /** The organisation's products (issue 38); none when absent. */
    products?: Product[]
  } = {},
) {
  let loads = 0
  const commented: CommentAction[] = []
  const carriedFrom: number[] = []
  const operations: WorkspaceOperation[] = []
  const previewed: PreviewSectionInput[] = []
  const saved: SaveAnswerInput[] = []
  const exported: string[] = []
  const assigned: AssignProductInput[] = []
  return {
    assigned,
    operations,
    previewed,
    saved,
    exported,
    carriedFrom,
    commented,
    loads: () => loads,
    logic: {
      workspace: questionnaireWorkspaceMachine.provide({
        actors: {
          live: options.live ?? quietLive,
          loadWorkspace: fromPromise<WorkspaceData, { id: number }>(async () => {
            loads += 1
            return options.data ?? data
          }),
          fetchQuestionnaire: fromPromise<Questionnaire, { id: number }>(
            async () => data.questionnaire,
          ),
          runOperation: fromPromise<OperationResult, { id: number; operation: WorkspaceOperation }>(
            async ({ input }) => {
              operations.push(input.operation)
              return { change: changeOf([]) }
            },
          ),
          loadHistory: fromPromise<Operation[], { id: number }>(async () => [
            {
              id: 1,
              kind: 'edit',
              summary: 'Edited the answer to SEC-01',
              questions: 1,
              by: { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
              created_at: new Date().toISOString(),
              undone: false,
              can_undo: true,
            },
          ]),
          reanalyze: fromPromise<Questionnaire, { id: number }>(async () => data.questionnaire),
          licenseNotice: fromPromise<number, void>(async () => options.notice ?? 0),
          exports: questionnaireExportMachine.provide({
            actors: {
              checkFilled: noFilledFileYet(),
              startExport: exportStarts(async (input) => {
                exported.push(
                  input.approvedOnly === null
                    ? input.format
                    : `${input.format}${input.approvedOnly ? ' approved only' : ' all drafts'}`,
                )
                if (options.exportRun) return { ...options.exportRun, format: input.format }
                throw new Error('Questionnaire not found')
              }),
              loadExport: fromPromise<ExportRun, { runId: number }>(() => new Promise(() => {})),
              downloadFilled: fromPromise<void, { file: FilledFile }>(async () => {}),
            },
          }),
          carry: carryForwardMachine.provide({
            actors: {
              loadPrevious: fromPromise<PreviousMatch[], { id: number }>(
                async () => options.previous ?? [],
              ),
              carryForward: fromPromise<CarryForwardResponse, { id: number; fromId: number }>(
                async ({ input }) => {
                  carriedFrom.push(input.fromId)
                  if (!options.carried) throw new Error('Questionnaire not found')
                  return options.carried
                },
              ),
            },
          }),
          assignment: assignmentMachine.provide({
            actors: {
              loadPeople: fromPromise<Person[], void>(async () => []),
              assign: fromPromise<number, { questionnaireId: number; request: AssignRequest }>(
                async () => 0,
              ),
            },
          }),
          activity: questionnaireActivityMachine.provide({
            actors: { loadActivity: fromPromise<Activity[], { id: number }>(async () => []) },
          }),
          sections: sectionPreviewMachine.provide({
            actors: {
              previewSection: fromPromise<SectionPreview, PreviewSectionInput>(
                async ({ input }) => {
                  previewed.push(input)
                  return {
                    changes: [
                      {
                        question_id: 2,
                        ref: 'SEC-02',
                        question: 'Do you meet security requirement 2?',
                        before: {
                          text: 'Reviewed quarterly. By the security officer.',
                          choice: 'Yes',
                        },
                        after: { text: 'Reviewed quarterly.', choice: 'Yes' },
                      },
                    ],
                    contradictions: [],
                  }
                },
              ),
            },
          }),
        },
      }),
      answer: answerMachine.provide({
        actors: {
          saveAnswer: fromPromise<AnswerChange, SaveAnswerInput>(async ({ input }) => {
            saved.push(input)
            if (options.save) return options.save(input)
            return changeOf(
              [
                rowOf(
                  1,
                  {},
                  { text: input.edit.text, choice: input.edit.choice, status: 'edited' },
                ),
              ],
              { questions: 3, answered: 2 },
            )
          }),
        },
      }),
      review: questionReviewMachine.provide({
        actors: {
          review: fromPromise<AnswerChange, { questionId: number; request: ReviewActionRequest }>(
            () => new Promise(() => {}),
          ),
        },
      }),
      comments: commentThreadMachine.provide({
        actors: {
          loadComments: fromPromise<Comment[], { questionId: number }>(() =>
            options.comments ? Promise.resolve(options.comments) : new Promise(() => {}),
          ),
          loadPeople: fromPromise<Person[], void>(async () => people),
          act: fromPromise<Comment, CommentAction>(async ({ input }) => {
            commented.push(input)
            if (input.kind !== 'create') throw new Error('That comment was not found.')
            return commentOf(9, { body: input.request.body })
          }),
        },
      }),
      products: productChoiceMachine.provide({
        actors: {
          loadProductChoices: fromPromise<Product[], void>(async () => options.products ?? []),
          assignProduct: fromPromise<void, AssignProductInput>(async ({ input }) => {
            assigned.push(input)
          }),
        },
      }),
    },
  }
}

export const renderPage = (setup: ReturnType<typeof pageLogic>) =>
  render(
    <SessionContext.Provider logic={readingSession}>
      <ToasterContext.Provider>
        <QuestionnaireWorkspace id={7} logic={setup.logic} />
      </ToasterContext.Provider>
    </SessionContext.Provider>,
  )
