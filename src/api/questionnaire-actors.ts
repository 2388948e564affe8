import { fromPromise } from 'xstate'
import { safeParse } from 'zod/mini'
import { licenseSchema } from '../../contract/auth.ts'
import { STALE_EDIT } from '../../contract/collaboration.ts'
import { repositoryFileListSchema } from '../../contract/knowledge.ts'
import { paths } from '../../contract/paths.ts'
import {
  type AnswerChange,
  answerChangeSchema,
  answerSchema,
  answersResponseSchema,
  type CarryForwardResponse,
  carryForwardResponseSchema,
  checkFilledFileSchema,
  consistencyResultSchema,
  type ExportFormat,
  type ExportRun,
  exportResponseSchema,
  type FilledFile,
  operationListSchema,
  type PreviousMatch,
  previousListSchema,
  type Questionnaire,
  questionnaireListSchema,
  questionnaireSchema,
  type SectionPreview,
  saveToLibraryResponseSchema,
  sectionPreviewSchema,
  type TabMapping,
  tabListSchema,
} from '../../contract/questionnaires.ts'
import type { AnswerIdInput, SaveAnswerInput } from '../../machines/answer/index.ts'
import type {
  QuestionnaireListEvents,
  UploadInput,
} from '../../machines/questionnaire-list/index.ts'
import { questionnaireLiveMachine } from '../../machines/questionnaire-live/index.ts'
import type {
  OperationResult,
  WorkspaceData,
  WorkspaceOperation,
} from '../../machines/questionnaire-workspace/index.ts'
import type { PreviewSectionInput } from '../../machines/section-preview/index.ts'
import { type ApiClient, ApiError, api } from './client.ts'
import { downloadPath } from './download.ts'
import { liveActors } from './live-actors.ts'
import { batchDeleteActor, uploadActor } from './upload.ts'

/**
 * A save refused because someone changed the answer since (409): an error that carries their
 * answer, for the answer machine's merge (issue 29).
 */
function staleSave(error: unknown) {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== STALE_EDIT) return null
  const current = safeParse(
    answerSchema,
    (error.body as { detail?: { current?: unknown } } | undefined)?.detail?.current,
  )
  return current.success ? Object.assign(new Error(error.message), { current: current.data }) : null
}

/**
 * The real side effects of the questionnaire review page's machines: the workspace, each
 * answer's lifecycle and the exports.
 */

/** A section operation's preview (issue 30): what it would change, nothing written. */
export function sectionPreviewActors(client: ApiClient = api) {
  return {
    previewSection: fromPromise<SectionPreview, PreviewSectionInput>(({ input }) =>
      client.post(
        paths.questionnaires.sections[input.operation](input.questionnaireId),
        {
          ...(input.tabId ? { tab_id: input.tabId } : {}),
          ...(input.instruction ? { instruction: input.instruction } : {}),
          preview: true,
        },
        sectionPreviewSchema,
      ),
    ),
  }
}

/** The browser-session key that remembers the license notice was shown (spec section 2). */
export const LICENSE_NOTICE_KEY = 'quire.license-notice-shown'

const contradictionNotice = (count: number) =>
  count
    ? `${count} approved answer${count === 1 ? '' : 's'} to the same question say${count === 1 ? 's' : ''} Yes where another says No: review ${count === 1 ? 'it' : 'them'}.`
    : undefined

export { downloadPath }

export function workspaceActors(client: ApiClient = api) {
  return {
    loadWorkspace: fromPromise<WorkspaceData, { id: number }>(async ({ input }) => {
      const [answers, tabs] = await Promise.all([
        client.get(paths.questionnaires.answers(input.id), answersResponseSchema),
        client.get(paths.questionnaires.tabs(input.id), tabListSchema),
      ])
      return { questionnaire: answers.questionnaire, rows: answers.questions, tabs: tabs.tabs }
    }),
    fetchQuestionnaire: fromPromise(async ({ input }: { input: { id: number } }) =>
      client.get(paths.questionnaires.get(input.id), questionnaireSchema),
    ),
    runOperation: fromPromise<OperationResult, { id: number; operation: WorkspaceOperation }>(
      async ({ input }) => {
        const { operation } = input
        if (operation.kind === 'select') {
          const change = await client.post(
            paths.questionnaires.selectAnswer(operation.questionId, operation.answerId),
            {},
            answerChangeSchema,
          )
          return { change }
        }
        if (operation.kind === 'delete') {
          const change = await client.post(
            paths.questionnaires.deleteQuestion(operation.questionId),
            {},
            answerChangeSchema,
          )
          return { change, deletedQuestionId: operation.questionId }
        }
        if (operation.kind === 'consistency') {
          const result = await client.post(
            paths.questionnaires.answer.applyConsistency(operation.answerId),
            {},
            consistencyResultSchema,
          )
          return { change: result, notice: contradictionNotice(result.contradictions.length) }
        }
        if (operation.kind === 'section') {
          const result = await client.post(
            paths.questionnaires.sections[operation.operation](input.id),
            {
              ...(operation.tabId ? { tab_id: operation.tabId } : {}),
              ...(operation.instruction ? { instruction: operation.instruction } : {}),
            },
            consistencyResultSchema,
          )
          return { change: result, notice: contradictionNotice(result.contradictions.length) }
        }
        const change = await client.post(
          paths.questionnaires.undo(input.id),
          {},
          answerChangeSchema,
        )
        return { change }
      },
    ),
    loadHistory: fromPromise(async ({ input }: { input: { id: number } }) => {
      const body = await client.get(paths.questionnaires.operations(input.id), operationListSchema)
      return body.operations
    }),
    reanalyze: fromPromise(
      async ({
        input,
      }: {
        input: { id: number; mappings?: { tab: string; mapping: TabMapping }[] }
      }) =>
        client.post(
          paths.questionnaires.reAnalyze(input.id),
          input.mappings ? { mappings: input.mappings } : {},
          questionnaireSchema,
        ),
    ),
    startGeneration: fromPromise(async ({ input }: { input: { id: number } }) =>
      client.post(paths.questionnaires.generate(input.id), {}, questionnaireSchema),
    ),
    cancelGeneration: fromPromise(async ({ input }: { input: { id: number } }) =>
      client.post(paths.questionnaires.cancelGeneration(input.id), {}, questionnaireSchema),
    ),
    loadEvidenceFiles: fromPromise<{ id: number; name: string }[], void>(async () => {
      const body = await client.get(
        `${paths.files.list}?status=ready&page_size=200`,
        repositoryFileListSchema,
      )
      return body.results.map((file) => ({ id: file.id, name: file.name }))
    }),
    live: questionnaireLiveMachine.provide({ actors: liveActors(client) }),
    licenseNotice: fromPromise<number, void>(async () => {
      if (sessionStorage.getItem(LICENSE_NOTICE_KEY)) return 0
      const license = await client.get(paths.account.license, licenseSchema)
      return license.tier.max_answers > 0 ? license.tier.max_answers : 0
    }),
  }
}

export const workspaceActions = {
  noticeShown: () => sessionStorage.setItem(LICENSE_NOTICE_KEY, '1'),
}

export function answerActors(client: ApiClient = api) {
  return {
    saveAnswer: fromPromise<AnswerChange, SaveAnswerInput>(async ({ input }) => {
      try {
        return await client.post(
          paths.questionnaires.answer.edit(input.answerId),
          input.edit,
          answerChangeSchema,
        )
      } catch (error) {
        throw staleSave(error) ?? error
      }
    }),
    approveAnswer: fromPromise<AnswerChange, AnswerIdInput>(async ({ input }) =>
      client.post(
        paths.questionnaires.answer.approve(input.answerId),
        input.confirmIncomplete ? { confirm_incomplete: true } : {},
        answerChangeSchema,
      ),
    ),
    unApproveAnswer: fromPromise<AnswerChange, AnswerIdInput>(async ({ input }) =>
      client.post(paths.questionnaires.answer.unApprove(input.answerId), {}, answerChangeSchema),
    ),
    saveToLibrary: fromPromise<{ item_id: number; created: boolean }, AnswerIdInput>(
      async ({ input }) =>
        client.post(
          paths.questionnaires.answer.saveToLibrary(input.answerId),
          {},
          saveToLibraryResponseSchema,
        ),
    ),
    regenerateAnswer: fromPromise<AnswerChange, AnswerIdInput>(async ({ input }) =>
      input.evidence || input.fileIds?.length
        ? client.post(
            paths.questionnaires.answer.regenerateWithEvidence(input.answerId),
            {
              ...(input.evidence ? { evidence: input.evidence } : {}),
              ...(input.fileIds?.length ? { file_ids: input.fileIds } : {}),
            },
            answerChangeSchema,
          )
        : client.post(
            paths.questionnaires.answer.regenerate(input.answerId),
            {},
            answerChangeSchema,
          ),
    ),
    // the server answers {questionnaire, questions}: no operation of the history to show
    confirmSource: fromPromise<AnswerChange, AnswerIdInput>(async ({ input }) => ({
      ...(await client.post(
        paths.questionnaires.answer.confirmSource(input.answerId),
        {},
        answersResponseSchema,
      )),
      operation: null,
    })),
  }
}

/** A questionnaire answered before (issue 28): the earlier ones it matches, and carrying forward. */
export function carryForwardActors(client: ApiClient = api) {
  return {
    loadPrevious: fromPromise<PreviousMatch[], { id: number }>(async ({ input }) => {
      const body = await client.get(paths.questionnaires.previous(input.id), previousListSchema)
      return body.results
    }),
    carryForward: fromPromise<CarryForwardResponse, { id: number; fromId: number }>(
      async ({ input }) =>
        client.post(
          paths.questionnaires.carryForward(input.id),
          { from_questionnaire_id: input.fromId },
          carryForwardResponseSchema,
        ),
    ),
  }
}

export function exportActors(client: ApiClient = api) {
  return {
    checkFilled: fromPromise(async ({ input }: { input: { id: number } }) =>
      client.post(
        paths.questionnaires.checkFilledFile,
        { questionnaire_id: input.id },
        checkFilledFileSchema,
      ),
    ),
    startExport: fromPromise<
      ExportRun,
      { id: number; format: ExportFormat; approvedOnly: boolean | null }
    >(async ({ input }) => {
      const body =
        input.format === 'original'
          ? await client.post(
              paths.questionnaires.exportOriginal,
              {
                questionnaire_id: input.id,
                // not chosen: the organisation's default decides
                ...(input.approvedOnly === null ? {} : { approved_only: input.approvedOnly }),
              },
              exportResponseSchema,
            )
          : await client.post(
              paths.questionnaires.exportBasic,
              { questionnaire_id: input.id, format: input.format },
              exportResponseSchema,
            )
      return body.export
    }),
    loadExport: fromPromise<ExportRun, { runId: number }>(async ({ input }) => {
      const body = await client.get(
        paths.questionnaires.exportRun(input.runId),
        exportResponseSchema,
      )
      return body.export
    }),
    downloadFilled: fromPromise<void, { file: FilledFile }>(async ({ input }) =>
      downloadPath(paths.questionnaires.filledFileDownload(input.file.id), input.file.name, client),
    ),
  }
}

/** The Questionnaires page: list, batch delete, and uploads with progress. */
export function questionnaireListActors(client: ApiClient = api) {
  return {
    loadQuestionnaires: fromPromise<{ count: number; results: Questionnaire[] }, void>(async () =>
      client.get(`${paths.questionnaires.list}?page_size=200`, questionnaireListSchema),
    ),
    deleteQuestionnaires: batchDeleteActor(client, paths.questionnaires.batchDelete),
    uploadQuestionnaire: uploadActor<QuestionnaireListEvents, UploadInput>(
      client,
      paths.questionnaires.upload,
      'file',
      (body, key) => {
        const parsed = safeParse(questionnaireSchema, body)
        return parsed.success ? { type: 'upload.done', key, questionnaire: parsed.data } : undefined
      },
    ),
  }
}
