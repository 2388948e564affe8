export * from './item-list.machine.ts'
