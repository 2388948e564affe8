export * from './qa-import.machine.ts'
