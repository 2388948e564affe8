import { answerMachine } from '../../../machines/answer/index.ts'
import { assignmentMachine } from '../../../machines/assignment/index.ts'
import { carryForwardMachine } from '../../../machines/carry-forward/index.ts'
import { commentThreadMachine } from '../../../machines/comment-thread/index.ts'
import { productChoiceMachine } from '../../../machines/product-choice/index.ts'
import { questionReviewMachine } from '../../../machines/question-review/index.ts'
import { questionnaireActivityMachine } from '../../../machines/questionnaire-activity/index.ts'
import { questionnaireExportMachine } from '../../../machines/questionnaire-export/index.ts'
import { questionnaireWorkspaceMachine } from '../../../machines/questionnaire-workspace/index.ts'
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

/**
 * The review workspace's machines with the real actors; tests pass their own. The workspace runs
 * its children itself (the live stream, the Export menu, the carry-forward offer, the section
 * preview, the assign dialog, the activity), each given its own actors here; the answer panel's
 * machines run per focused question.
 */
export function createQuestionnaireLogic() {
  return {
    workspace: questionnaireWorkspaceMachine.provide({
      actors: {
        ...workspaceActors(),
        exports: questionnaireExportMachine.provide({ actors: exportActors() }),
        carry: carryForwardMachine.provide({ actors: carryForwardActors() }),
        sections: sectionPreviewMachine.provide({ actors: sectionPreviewActors() }),
        assignment: assignmentMachine.provide({ actors: assignmentActors() }),
        activity: questionnaireActivityMachine.provide({ actors: activityActors() }),
      },
      actions: workspaceActions,
    }),
    answer: answerMachine.provide({ actors: answerActors() }),
    review: questionReviewMachine.provide({ actors: questionReviewActors() }),
    comments: commentThreadMachine.provide({ actors: commentActors() }),
    products: productChoiceMachine.provide({ actors: productChoiceActors() }),
  }
}
export type QuestionnaireLogic = ReturnType<typeof createQuestionnaireLogic>
