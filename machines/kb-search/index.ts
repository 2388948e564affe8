export * from './kb-search.machine.ts'
