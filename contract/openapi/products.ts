import { deleteResponseSchema } from '../knowledge.ts'
import { paths } from '../paths.ts'
import {
  productAssignResultSchema,
  productAssignSchema,
  productCreateSchema,
  productListSchema,
  productSchema,
  productUpdateSchema,
} from '../products.ts'
import { type OperationDocs, op } from './operation.ts'

const P = paths.products

/** The organisation's products, and which product files, answers and questionnaires speak for. */
export const productOperations: OperationDocs = {
  [op('GET', P.list)]: {
    summary: 'The organisation’s products',
    access: 'read',
    response: productListSchema,
  },
  [op('POST', P.list)]: {
    summary: 'Add a product',
    access: 'library.manage',
    body: productCreateSchema,
    response: productSchema,
    status: 201,
  },
  [op('GET', P.item('{id}'))]: {
    summary: 'One product, with how many files, answers and questionnaires speak for it',
    access: 'read',
    response: productSchema,
  },
  [op('PATCH', P.item('{id}'))]: {
    summary: 'Edit a product: the fields given change, the others stay',
    access: 'library.manage',
    body: productUpdateSchema,
    response: productSchema,
  },
  [op('DELETE', P.item('{id}'))]: {
    summary: 'Delete a product; what spoke for it then speaks for the whole company',
    access: 'library.manage',
    response: deleteResponseSchema,
  },
  [op('POST', P.assign)]: {
    summary: 'Set (or clear) the product of several files, library answers and questionnaires',
    access: 'repository.write',
    body: productAssignSchema,
    response: productAssignResultSchema,
  },
}
