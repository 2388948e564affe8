import { errorMessage } from '../contract/errors.ts'

/**
 * What flows with a form share, for the named actions of their `setup()`: the charts stay their
 * own, the logic is written once.
 */

/** The form with a change merged in, and the error cleared (the change answers it). */
export const editedForm = <TForm>(form: TForm, change: Partial<TForm>) => ({
  form: { ...form, ...change },
  error: null,
})

/** The error a failed call's event carries, in its own words or the fallback's. */
export const failureText = (event: object, fallback: string) =>
  errorMessage('error' in event ? event.error : undefined, fallback)
