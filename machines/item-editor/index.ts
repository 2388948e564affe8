export * from './item-editor.machine.ts'
