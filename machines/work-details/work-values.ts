import { safeParse } from 'zod/v4/core'
import { type WorkStatus, type WorkUpdate, workUpdateSchema } from '../../contract/collaboration.ts'
import type { Questionnaire } from '../../contract/questionnaires.ts'

/**
 * The work dialog's fields as the form holds them (text), and what of them is sent: only what
 * changed, so that the questionnaire's activity tells what someone did.
 */

/** The customer select's value for "a new customer, by the name typed". */
export const NEW_CUSTOMER = 'new'

export interface WorkValues {
  /** A person's id, or '' for nobody. */
  owner_id: string
  /** A customer's id, '' for none, or NEW_CUSTOMER. */
  customer: string
  customer_name: string
  requester: string
  /** YYYY-MM-DD, or '' for none. */
  due_date: string
  work_status: WorkStatus
}
export type WorkField = keyof WorkValues

export function valuesOf(questionnaire: Questionnaire): WorkValues {
  return {
    owner_id: questionnaire.owner ? String(questionnaire.owner.id) : '',
    customer: questionnaire.customer ? String(questionnaire.customer.id) : '',
    customer_name: '',
    requester: questionnaire.requester ?? '',
    due_date: questionnaire.due_date ?? '',
    work_status: questionnaire.work_status,
  }
}

const idOrNull = (text: string) => (text ? Number(text) : null)

/** The call's body: each field that differs from where the dialog started. */
export function workChanges(initial: WorkValues, values: WorkValues): WorkUpdate {
  const body: WorkUpdate = {}
  if (values.owner_id !== initial.owner_id) body.owner_id = idOrNull(values.owner_id)
  if (values.customer === NEW_CUSTOMER) body.customer_name = values.customer_name
  else if (values.customer !== initial.customer) body.customer_id = idOrNull(values.customer)
  if (values.requester.trim() !== initial.requester)
    body.requester = values.requester.trim() || null
  if (values.due_date !== initial.due_date) body.due_date = values.due_date || null
  if (values.work_status !== initial.work_status) body.work_status = values.work_status
  return body
}

/** Each field's first problem, in the contract's words. */
export function checkWork(
  initial: WorkValues,
  values: WorkValues,
): Partial<Record<WorkField, string>> {
  const result = safeParse(workUpdateSchema, workChanges(initial, values))
  if (result.success) return {}
  const errors: Partial<Record<WorkField, string>> = {}
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as WorkField
    errors[field] ??= issue.message
  }
  return errors
}
