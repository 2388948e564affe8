export * from './questionnaire-live.machine.ts'
