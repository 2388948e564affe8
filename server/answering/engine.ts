/**
 * The library engine, in one import: what it takes and gives (types.ts), the library of approved
 * answers (library.ts), answers from evidence (evidence.ts) and a job's in-memory passage index
 * (passage-index.ts). Loading any of them from the database is server/modules/answering/store.ts.
 */
export * from './abstention.ts'
export * from './agreement.ts'
export * from './calibration.ts'
export * from './evidence.ts'
export * from './extractive.ts'
export * from './framing.ts'
export * from './library.ts'
export * from './library-answer.ts'
export * from './named-practices.ts'
export * from './partial.ts'
export * from './parts.ts'
export * from './passage-index.ts'
export * from './practices.ts'
export * from './qualifiers.ts'
export * from './quotes.ts'
export * from './scope.ts'
export * from './stated.ts'
export * from './statements.ts'
export * from './submission.ts'
export * from './third-party.ts'
export * from './transfer.ts'
export * from './types.ts'
export * from './wording.ts'
