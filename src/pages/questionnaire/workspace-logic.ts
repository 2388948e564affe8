import type { ActorRefFrom } from 'xstate'
import { answerMachine } from '../../../machines/answer/index.ts'
import { assignmentMachine } from '../../../machines/assignment/index.ts'
import { carryForwardMachine } from '../../../machines/carry-forward/index.ts'
import { commentThreadMachine } from '../../../machines/comment-thread/index.ts'
import { productChoiceMachine } from '../../../machines/product-choice/index.ts'
import { questionReviewMachine } from '../../../machines/question-review/index.ts'
import { questionnaireActivityMachine } from '../../../machines/questionnaire-activity/index.ts'
import { questionnaireExportMachine } from '../../../machines/questionnaire-export/index.ts'
import {
  questionnaireWorkspaceMachine,
  selectHasCarried,
  selectIsRead,
} from '../../../machines/questionnaire-workspace/index.ts'
import { sectionPreviewMachine } from '../../../machines/section-preview/index.ts'
import {
  activityActors,
  assignmentActors,
  commentActors,
  questionReviewActors,
} from '../../api/collaboration-actors.ts'
import { productChoiceActors } from '../../api/product-actors.ts'
import {
  answerActors,
  carryForwardActors,
  exportActors,
  sectionPreviewActors,
  workspaceActions,
  workspaceActors,
} from '../../api/questionnaire-actors.ts'

/** The review workspace's machines with their actors, and how they follow one another. */

/** The page's machines with the real actors; tests pass their own. */
export function createQuestionnaireLogic() {
  return {
    workspace: questionnaireWorkspaceMachine.provide({
      actors: workspaceActors(),
      actions: workspaceActions,
    }),
    answer: answerMachine.provide({ actors: answerActors() }),
    exports: questionnaireExportMachine.provide({ actors: exportActors() }),
    carry: carryForwardMachine.provide({ actors: carryForwardActors() }),
    assignment: assignmentMachine.provide({ actors: assignmentActors() }),
    review: questionReviewMachine.provide({ actors: questionReviewActors() }),
    activity: questionnaireActivityMachine.provide({ actors: activityActors() }),
    comments: commentThreadMachine.provide({ actors: commentActors() }),
    sections: sectionPreviewMachine.provide({ actors: sectionPreviewActors() }),
    products: productChoiceMachine.provide({ actors: productChoiceActors() }),
  }
}
export type QuestionnaireLogic = ReturnType<typeof createQuestionnaireLogic>

/**
 * Tells the export machine the questionnaire's revision, now and whenever the workspace changes,
 * and has it read the latest file again when the live stream says an export finished (issue 37).
 */
export function followRevision(
  workspace: ActorRefFrom<QuestionnaireLogic['workspace']>,
  exports: ActorRefFrom<QuestionnaireLogic['exports']>,
) {
  const tell = () =>
    exports.send({
      type: 'revision',
      revision: workspace.getSnapshot().context.questionnaire?.revision ?? null,
    })
  tell()
  return [
    workspace.subscribe(tell),
    workspace.on('exports.changed', () => exports.send({ type: 'refresh' })),
  ]
}

/**
 * Once the questionnaire is read, the carry-forward offer looks for an earlier one; once carried,
 * the workspace reads its answers again.
 */
export function followCarry(
  workspace: ActorRefFrom<QuestionnaireLogic['workspace']>,
  carry: ActorRefFrom<QuestionnaireLogic['carry']>,
) {
  const check = () => {
    const snapshot = workspace.getSnapshot()
    if (selectIsRead(snapshot)) carry.send({ type: 'check', carried: selectHasCarried(snapshot) })
  }
  check()
  return [
    workspace.subscribe(check),
    carry.on('carried', () => workspace.send({ type: 'refresh' })),
  ]
}

/** The activity is read whenever the history opens. */
export function followHistory(
  workspace: ActorRefFrom<QuestionnaireLogic['workspace']>,
  activity: ActorRefFrom<QuestionnaireLogic['activity']>,
) {
  let open = false
  return workspace.subscribe((snapshot) => {
    const now = !snapshot.matches({ history: 'closed' })
    if (now && !open) activity.send({ type: 'load' })
    open = now
  })
}

/**
 * A question's open comment threads, shown on its row at once (the live stream reads the row again
 * too, a moment later).
 */
export function tellOpenComments(
  workspace: ActorRefFrom<QuestionnaireLogic['workspace']>,
  questionId: number,
  open: number,
) {
  const { rows, questionnaire } = workspace.getSnapshot().context
  const row = rows.find((r) => r.id === questionId)
  if (!row || !questionnaire || row.assignment.comments === open) return
  workspace.send({
    type: 'rows.merge',
    change: {
      questionnaire,
      questions: [{ ...row, assignment: { ...row.assignment, comments: open } }],
      operation: null,
    },
  })
}
