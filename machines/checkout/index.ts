export { checkoutMachine } from './checkout.machine.ts'
export type * from './checkout.types.ts'
