import type { CellNeeds } from '../../../contract/questionnaires.ts'
import type { AnswerTarget } from '../../workbooks/analyse.ts'

/**
 * What the customer's cells take for a question (issue 39): a dropdown value (or a mark in one of
 * several columns) where the answer cell has a vocabulary, and a text where a column beside it
 * takes the narrative. Null for a question with no place in the file.
 */
export function cellNeedsOf(
  target: AnswerTarget | null,
  vocabulary: string[] | null,
): CellNeeds | null {
  if (!target) return null
  if (target.type === 'cell') {
    const choice = Boolean(vocabulary?.length || target.marks?.length)
    return { choice, text: choice && target.comment !== null && target.comment !== target.column }
  }
  if (target.type === 'docx_cell') {
    const choice = Boolean(vocabulary?.length)
    return { choice, text: choice && target.comment !== null && target.comment !== target.cell }
  }
  return { choice: false, text: false }
}
