import { AUTH_ERROR_CODES } from '../contract/auth.ts'
import { newPasswordError } from '../contract/auth-texts.ts'

/**
 * What the account flows (registration, forgot, reset and set password, the forced change) share:
 * how their calls fail, the query parameters of an emailed link and the events of the form that
 * chooses a new password.
 */

/**
 * How a call of these flows fails: the HTTP status (0 when the server was not reached), the text
 * fields of the error body and its machine-readable `code`.
 */
export interface RequestFailure {
  status: number
  error?: string
  msg?: string
  detail?: string
  code?: string
  message?: string
  /** Google's callback: the sign-in's state expired, the person must log in again. */
  redirect_to_login?: boolean
}

/**
 * The `RequestFailure` an actor's error event carries, as the params of the action or guard that
 * reads it; anything else thrown means the server was not reached.
 */
export const failureOf = ({ event }: { event: { error: unknown } }): RequestFailure =>
  typeof event.error === 'object' && event.error !== null && 'status' in event.error
    ? (event.error as RequestFailure)
    : { status: 0 }

/** Guard: the link's uid or token is missing, so it cannot be used at all. */
const linkIsIncomplete = ({ context }: { context: { uid: string | null; token: string | null } }) =>
  !context.uid || !context.token

/** Guard: a 400 about the link itself (used, expired or unknown), not about the new password. */
const linkWasRejected = (_: unknown, failure: RequestFailure) =>
  failure.status === 400 && failure.code === AUTH_ERROR_CODES.invalidToken

/**
 * The guards of the flows an emailed link starts (reset, and a first password from an invite),
 * for `setup({ guards: { ...emailedLinkGuards } })`: `linkIsIncomplete`, and `linkWasRejected`
 * given the `RequestFailure` (`failureOf`) as its params.
 */
export const emailedLinkGuards = { linkIsIncomplete, linkWasRejected }

/** An emailed link's query parameters, as they came. */
export interface LinkInput {
  uid?: string | null
  token?: string | null
}

/**
 * What setting a password with an emailed link (reset, or a first password from an invite) sends:
 * `{uid, token, new_password}`, as the `input` of the state that sends it.
 */
export const linkPasswordInput = ({
  context,
}: {
  context: { uid: string | null; token: string | null; password: string }
}) => ({ uid: context.uid ?? '', token: context.token ?? '', new_password: context.password })

/** The new-password form: typing in either field, and its button. */
export type NewPasswordEvents =
  | { type: 'password.change'; value: string }
  | { type: 'confirm.change'; value: string }
  | { type: 'submit' }

interface NewPasswordFields {
  password: string
  confirm: string
}

/**
 * The new-password form of the reset, the first password and the forced change, written once so
 * that each flow's editing state says it in a few lines. In a machine whose context holds
 * `password`, `confirm` and `formError`: `value`, the params of a field's action (the event's
 * value); what the actions assign, for `assign(...)` (typing clears the message; a refused submit
 * names the rule); and `breaksRule`, the guard that refuses a submit (too short, or the two fields
 * differ), so that nothing is sent.
 */
export const newPasswordForm = {
  value: ({ event }: { event: { value: string } }) => event.value,
  setPassword: (_: unknown, value: string) => ({ password: value, formError: null }),
  setConfirm: (_: unknown, value: string) => ({ confirm: value, formError: null }),
  /** Given the context (`assign(({ context }) => showPasswordError(context))`). */
  showPasswordError: (fields: NewPasswordFields) => ({
    formError: newPasswordError(fields.password, fields.confirm),
  }),
  breaksRule: ({ context }: { context: NewPasswordFields }) =>
    newPasswordError(context.password, context.confirm) !== null,
}

/** The first screen (in `screens`' order) whose state the snapshot is in; `otherwise` when none. */
export function screenOf<
  Snapshot extends { matches(state: never): boolean },
  Screen extends string,
>(
  snapshot: Snapshot,
  screens: readonly (readonly [Screen, Parameters<Snapshot['matches']>[0]])[],
  otherwise: Screen,
): Screen {
  return screens.find(([, state]) => snapshot.matches(state as never))?.[0] ?? otherwise
}
