import { fromPromise } from 'xstate'
import {
  type Customer,
  type CustomerCreate,
  type CustomerPage,
  customerListSchema,
  customerPageSchema,
} from '../../contract/collaboration.ts'
import { paths } from '../../contract/paths.ts'
import {
  type Questionnaire,
  questionnaireListSchema,
  questionnaireSchema,
} from '../../contract/questionnaires.ts'
import { customerListMachine } from '../../machines/customer-list/index.ts'
import { customerPageMachine } from '../../machines/customer-page/index.ts'
import { ownerChoicesMachine } from '../../machines/owner-choices/index.ts'
import { productChoiceMachine } from '../../machines/product-choice/index.ts'
import {
  listQuery,
  type QuestionnaireFilters,
  questionnaireListMachine,
} from '../../machines/questionnaire-list/index.ts'
import { type SaveWorkInput, workDetailsMachine } from '../../machines/work-details/index.ts'
import { type ApiClient, api } from './client.ts'
import { knowledgeActors } from './knowledge-actors.ts'
import { productChoiceActors } from './product-actors.ts'
import { questionnaireListActors } from './questionnaire-actors.ts'

/**
 * The real side effects of a questionnaire's work (issue 29): the list narrowed by its filters,
 * the work dialog's save, and the customers the organisation keeps.
 */
export function workActors(client: ApiClient = api) {
  return {
    loadQuestionnaires: fromPromise<
      { count: number; results: Questionnaire[] },
      QuestionnaireFilters
    >(async ({ input, signal }) => {
      const query = new URLSearchParams()
      for (const [key, value] of Object.entries(listQuery(input))) query.set(key, String(value))
      return client.get(`${paths.questionnaires.list}?${query}`, questionnaireListSchema, {
        signal,
      })
    }),
    saveWork: fromPromise<Questionnaire, SaveWorkInput>(async ({ input }) =>
      client.post(paths.questionnaires.work(input.id), input.body, questionnaireSchema),
    ),
    loadCustomers: fromPromise<Customer[], void>(async () =>
      client.get(paths.questionnaires.customers, customerListSchema).then((list) => list.results),
    ),
    createCustomer: fromPromise<CustomerPage, CustomerCreate>(async ({ input }) =>
      client.post(paths.questionnaires.customers, input, customerPageSchema),
    ),
    loadCustomer: fromPromise<CustomerPage, { id: number }>(async ({ input }) =>
      client.get(paths.questionnaires.customer(input.id), customerPageSchema),
    ),
    // the people an owner is chosen from: the knowledge base's owner choices
    loadOwnerChoices: knowledgeActors(client).loadOwnerChoices,
  }
}

/** The questionnaires page's machines with the real actors; tests pass their own. */
export function createQuestionnairesLogic(
  actors = { ...questionnaireListActors(), ...workActors() },
  productActors = productChoiceActors(),
) {
  return {
    list: questionnaireListMachine.provide({ actors }),
    work: workDetailsMachine.provide({ actors }),
    customers: customerListMachine.provide({ actors }),
    owners: ownerChoicesMachine.provide({ actors }),
    products: productChoiceMachine.provide({ actors: productActors }),
  }
}
export type QuestionnairesLogic = ReturnType<typeof createQuestionnairesLogic>

/** The customers pages' machines with the real actors. */
export function createCustomersLogic(actors = workActors()) {
  return {
    list: customerListMachine.provide({ actors }),
    page: customerPageMachine.provide({ actors }),
  }
}
export type CustomersLogic = ReturnType<typeof createCustomersLogic>
