import { customerCreateSchema, customerListSchema, customerPageSchema } from '../collaboration.ts'
import { paths } from '../paths.ts'
import { type OperationDocs, op } from './operation.ts'

const Q = paths.questionnaires

/** The customers that send the organisation questionnaires. */
export const customerOperations: OperationDocs = {
  [op('GET', Q.customers)]: {
    summary: 'The organisation’s customers',
    access: 'read',
    response: customerListSchema,
  },
  [op('POST', Q.customers)]: {
    summary: 'Add a customer',
    access: 'questionnaires.write',
    body: customerCreateSchema,
    response: customerPageSchema,
    status: 201,
  },
  [op('GET', Q.customer('{id}'))]: {
    summary: 'A customer and its questionnaires, newest first',
    access: 'read',
    response: customerPageSchema,
  },
}
