/**
 * The wording of the repository and the knowledge base: its error and status texts and the
 * placeholder filler they use. Apart from the schemas of knowledge.ts, which re-exports all of
 * this, so that the server, the machines and the tests keep importing from one place.
 */

/** Files per upload request. Here rather than in knowledge.ts because a text below states it. */
export const MAX_FILES_PER_UPLOAD = 20

/** Error texts of the repository and knowledge base (plain words; the spec names none). */
export const KNOWLEDGE_TEXTS = {
  fileNotFound: 'File not found',
  itemNotFound: 'Item not found',
  reviewNotAllowed:
    'Only the answer’s owner or someone who manages the library can mark it reviewed',
  deleteOthersFiles:
    'You can delete only files you uploaded. Ask an approver or an admin to delete the others.',
  noFiles: 'Choose at least one file to upload',
  tooManyFiles: `Upload at most ${MAX_FILES_PER_UPLOAD} files at a time`,
  /** `{name}` and `{limit}` are replaced. */
  fileTooLarge: '{name} is larger than the {limit} MB limit',
  emptyFile: '{name} is empty',
  unsupportedType:
    '{name} is not a supported file type. Upload PDF, Word (.docx), Excel (.xlsx), CSV, text, Markdown or HTML files.',
  typeMismatch: "{name} does not look like a {kind} file: its contents don't match its extension.",
  /** An Office package refused by its structure at upload; {reason} is the check's own sentence. */
  unsafePackage: '{name} was not uploaded. {reason}',
  repositoryFull:
    'Your plan allows {limit} files in the repository. Delete some files or upgrade your plan to add more.',
  importNeedsTable: 'Import needs a CSV or Excel (.xlsx) file',
  importNoRows: 'No rows with both a question and an answer were found',
  importSheetMissing: 'The workbook has no sheet named {sheet}',
  urlBlocked: 'This address cannot be fetched: only public http and https sites are allowed',
  stillProcessing: 'This file is still being processed',
  /** Issue 28: versions of a repository file. */
  versionNotFound: 'That version of the file was not found',
  replaceOneFile: 'Choose one file to replace this one with',
  replaceLink: 'A page added by its address cannot be replaced by a file. Add the file instead.',
  replaceOthersFiles:
    'You can replace only files you uploaded. Ask an approver or an admin to replace the others.',
  /** `{name}` is replaced: an upload with the name of someone else's file. */
  versionOthersFile:
    '{name} is already in the repository, uploaded by someone else. You can add new versions only of files you uploaded: rename the file, or ask an approver or an admin.',
  /** The browser's own words, where a call failed without the server's reason. */
  urlInvalid: 'Enter a valid URL',
  urlAddFailed: 'The address could not be added. Please try again.',
  fileLoadFailed: 'This file could not be loaded.',
  fileReadFailed: 'What was read from this file could not be loaded.',
  searchFailed: 'Search failed. Please try again.',
  healthFailed: 'Duplicates could not be checked',
  reviewFailed: 'The answer could not be marked reviewed. Please try again.',
  importReadFailed: 'The file could not be read. Please try again.',
  importColumns: 'Choose the question and answer columns',
} as const

/** Fills `{name}`-style placeholders of a text. */
export const fillText = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''))
