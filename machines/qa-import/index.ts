export * from './qa-import.machine.ts'
export type * from './qa-import.types.ts'
