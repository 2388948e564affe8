/**
 * The review workspace's own words (issue 43): its toasts and the fallbacks of its calls, where
 * the server's answer names no reason. The workspace machine words every toast from these.
 */
export const WORKSPACE_TEXTS = {
  loadFailed: 'The questionnaire could not be loaded',
  cancelFailed: 'Generation could not be stopped',
  changeFailed: 'The change could not be made',
  generateFailed: 'Answers could not be generated',
  reanalyzeFailed: 'The questionnaire could not be re-analysed',
  historyFailed: 'The history could not be loaded',
  /** An undo's toast (an undone operation carries no summary of its own). */
  undone: 'Undone',
  exported: 'Exported {name}',
  libraryAdded: 'Added to the library',
  libraryUpdated: 'Library answer updated',
} as const

/** The toast of an assignment: "Assigned 3 questions", "Unassigned 1 question". */
export const assignedText = (count: number, unassigned: boolean) =>
  `${unassigned ? 'Unassigned' : 'Assigned'} ${count} question${count === 1 ? '' : 's'}`

/** The toast of a finished export, naming the file. */
export const exportedText = (name: string) => WORKSPACE_TEXTS.exported.replace('{name}', name)
