import { accountOperations } from './account.ts'
import { answerOperations } from './answers.ts'
import { authOperations } from './auth.ts'
import { billingOperations } from './billing.ts'
import { chatOperations } from './chat.ts'
import { collaborationOperations } from './collaboration.ts'
import { customerOperations } from './customers.ts'
import { extensionOperations } from './extension.ts'
import { healthOperations } from './health.ts'
import { knowledgeOperations } from './knowledge.ts'
import { legalOperations } from './legal.ts'
import { notificationOperations } from './notifications.ts'
import type { OperationDocs } from './operation.ts'
import { platformOperations } from './platform.ts'
import { productOperations } from './products.ts'
import { questionnaireOperations } from './questionnaires.ts'
import { repositoryOperations } from './repository.ts'
import { ssoOperations } from './sso.ts'
import { supportOperations } from './support.ts'
import { trustOperations } from './trust.ts'
import { userOperations } from './users.ts'

export * from './operation.ts'

const AREAS: OperationDocs[] = [
  healthOperations,
  legalOperations,
  authOperations,
  userOperations,
  accountOperations,
  billingOperations,
  ssoOperations,
  extensionOperations,
  supportOperations,
  repositoryOperations,
  knowledgeOperations,
  questionnaireOperations,
  answerOperations,
  collaborationOperations,
  customerOperations,
  chatOperations,
  notificationOperations,
  productOperations,
  platformOperations,
  trustOperations,
]

/** Every operation of the API, area by area (issue 41); an operation is described once. */
export const OPERATIONS: OperationDocs = {}
for (const area of AREAS)
  for (const [key, doc] of Object.entries(area)) {
    if (key in OPERATIONS) throw new Error(`${key} is described twice in contract/openapi/`)
    OPERATIONS[key] = doc
  }
