export * from './add-by-url.machine.ts'
