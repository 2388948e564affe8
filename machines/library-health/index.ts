export * from './library-health.machine.ts'
