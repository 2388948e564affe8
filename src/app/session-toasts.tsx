import { useEffect } from 'react'
import { AUTH_ERROR_CODES } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { SESSION_WARNING_TOAST_MS } from '../../machines/constants.ts'
import type { ToastInput } from '../../machines/toaster/index.ts'
import type { SessionActorRef } from './session.tsx'
import { SessionContext } from './session.tsx'
import { ToasterContext } from './toaster.tsx'

/** The warning toast's id (dismissed when the session ends) and its action's key. */
export const SESSION_WARNING_TOAST_ID = 'session-warning'
export const EXTEND_SESSION_KEY = 'session.extend'

type ToasterActorRef = ReturnType<typeof ToasterContext.useActorRef>

/**
 * Turns the session's emitted events into toasts (spec section 8, 'Session and token'), and the
 * warning toast's 'Extend Session' into `session.extend`. The warning toast stays 30 s.
 */
export function connectSessionToasts(session: SessionActorRef, toaster: ToasterActorRef) {
  const show = (toast: ToastInput) => toaster.send({ type: 'toast.show', toast })
  const subscriptions = [
    session.on('profile.failed', (event) => {
      // the server refuses the profile until a required password change is done: that is the
      // next step, not an error (the app sends the user to /force-password-change)
      if (event.code === AUTH_ERROR_CODES.passwordChangeRequired) return
      show({ title: AUTH_TEXTS.profileLoadFailed, type: 'error' })
    }),
    session.on('warning', () =>
      show({
        id: SESSION_WARNING_TOAST_ID,
        title: AUTH_TEXTS.sessionWarning,
        type: 'warning',
        duration: SESSION_WARNING_TOAST_MS,
        action: { label: AUTH_TEXTS.extendSession, key: EXTEND_SESSION_KEY },
      }),
    ),
    // a warning about a session that has ended no longer applies
    session.on('logout', () =>
      toaster.send({ type: 'toast.dismiss', id: SESSION_WARNING_TOAST_ID }),
    ),
    session.on('extended', () => show({ title: AUTH_TEXTS.sessionExtended, type: 'success' })),
    session.on('extend.failed', () =>
      show({ title: AUTH_TEXTS.sessionExtendFailed, type: 'error' }),
    ),
    toaster.on('action', (event) => {
      if (event.key === EXTEND_SESSION_KEY) session.send({ type: 'session.extend' })
    }),
  ]
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
}

/** Renders nothing: wires the app-wide session to the app-wide toaster. */
export function SessionToasts() {
  const session = SessionContext.useActorRef()
  const toaster = ToasterContext.useActorRef()
  useEffect(() => connectSessionToasts(session, toaster), [session, toaster])
  return null
}
