import { useNavigate, useSearch } from '@tanstack/react-router'
import { CircleAlert, CircleCheck } from 'lucide-react'
import type { ReactNode } from 'react'
import { css, cva, cx } from 'styled-system/css'
import type { Subscription } from 'xstate'
import type { AccessClaims } from '../../../contract/auth.ts'
import { SessionContext } from '../../app/session.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { labelledField } from '../../components/password/password-field.tsx'
import { Button, type ButtonProps } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'

/**
 * Small parts shared by the account screens (register, forgot and reset password, invite links,
 * the forced change, email confirmation). They only render what they are given.
 */

const alertIcon = css({ flexShrink: '0', mt: '0.5' })
const fullWidth = css({ w: 'full' })

/** An error (role alert) or a confirmation (role status) inside a form or a result screen. */
export function FormAlert(props: { tone?: 'error' | 'success'; children: ReactNode }) {
  const success = props.tone === 'success'
  return (
    <div
      role={success ? 'status' : 'alert'}
      className={success ? authStyles.notice : authStyles.alert}
    >
      {success ? (
        <CircleCheck size={16} aria-hidden className={alertIcon} />
      ) : (
        <CircleAlert size={16} aria-hidden className={alertIcon} />
      )}
      <span>{props.children}</span>
    </div>
  )
}

// The preset ships only the accent, gray and red palettes; green and amber are Radix's step 11,
// as the toasts use them, with a tint of the same colour behind.
const badge = cva({
  base: {
    display: 'grid',
    placeItems: 'center',
    w: '12',
    h: '12',
    borderRadius: 'full',
    color: 'var(--badge-tone)',
    bg: 'color-mix(in srgb, var(--badge-tone) 12%, transparent)',
    '& svg': { w: '6', h: '6' },
  },
  variants: {
    tone: {
      info: { '--badge-tone': '{colors.accent.default}' },
      success: { '--badge-tone': { base: '#218358', _dark: '#3dd68c' } },
      warning: { '--badge-tone': { base: '#ab6400', _dark: '#ffca16' } },
      error: { '--badge-tone': '{colors.red.9}' },
    },
  },
  defaultVariants: { tone: 'info' },
})

/** A round icon that opens a result screen (sent, saved, expired, invalid). */
export function StatusBadge(props: {
  tone?: 'info' | 'success' | 'warning' | 'error'
  children: ReactNode
}) {
  return (
    <div className={badge({ tone: props.tone })} aria-hidden>
      {props.children}
    </div>
  )
}

/**
 * A result screen (sent, saved, expired, invalid): the badge, an optional line under it, the
 * error when there is one, then what the user can do next (`children`).
 */
export function StatusScreen(props: {
  title: string
  lead?: ReactNode
  tone: 'info' | 'success' | 'warning' | 'error'
  icon: ReactNode
  text?: ReactNode
  error?: string | null
  children?: ReactNode
}) {
  return (
    <AuthLayout title={props.title} lead={props.lead}>
      <div className={authStyles.center}>
        <StatusBadge tone={props.tone}>{props.icon}</StatusBadge>
        {props.text && <p className={authStyles.muted}>{props.text}</p>}
      </div>
      {props.error && <FormAlert>{props.error}</FormAlert>}
      {props.children}
    </AuthLayout>
  )
}

const pending = css({ py: '6' })
const pendingSpinner = css({ color: 'colorPalette.default' })

/** A call in progress: a spinner over one line of text ('Validating reset link...'). */
export function Pending(props: { text: string }) {
  return (
    <div className={cx(authStyles.center, pending)} aria-live="polite">
      <Spinner size="lg" label={props.text} className={pendingSpinner} />
      <p className={authStyles.muted}>{props.text}</p>
    </div>
  )
}

const redirectNote = css({ textAlign: 'center' })

/** Said under a message the page leaves on its own ('Taking you to sign in...'). */
export function RedirectNote() {
  return <p className={cx(authStyles.muted, redirectNote)}>Taking you to sign in...</p>
}

/** A button that goes to another screen (the spec calls these buttons, not links). */
export function NavButton({
  to,
  className,
  ...props
}: Omit<ButtonProps, 'onClick' | 'type'> & {
  to: '/login' | '/forgot-password' | '/'
}) {
  const navigate = useNavigate()
  return (
    <Button
      type="button"
      className={cx(fullWidth, className)}
      onClick={() => void navigate({ to })}
      {...props}
    />
  )
}

/** A labelled text field; the error shows under it and marks it invalid. */
export const TextField = labelledField(Field.Input)

/** A labelled password field with the show/hide toggle. */
export { PasswordField } from '../../components/password/password-field.tsx'
/** The 'Back to Login' link. */
export { BackToLogin } from './auth-layout.tsx'

/**
 * A text query parameter of the current address. The router's default parser turns a number-like
 * value into a number, so numbers are read back as text.
 */
export function useSearchText(
  key:
    | 'uid'
    | 'token'
    | 'uuid'
    | 'data'
    | 'code'
    | 'state'
    | 'error'
    | 'error_description'
    | 'iss'
    | 'redirect_uri'
    | 'extension_id',
): string | undefined {
  const search: Record<string, unknown> = useSearch({ strict: false })
  const value = search[key]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}

/**
 * An emailed link's uid and token, and a key that changes with them: a different link is a
 * different flow, so the page keys its flow on it.
 */
export function useLinkInput() {
  const uid = useSearchText('uid')
  const token = useSearchText('token')
  return { key: `${uid}\n${token}`, input: { uid, token } }
}

interface Emitter<TEvent> {
  on(
    type: TEvent extends { type: infer T } ? T : never,
    handler: (event: TEvent) => void,
  ): Subscription
}

/** Follows the machine's `navigate` (after a pause, to /login), replacing the link's address. */
export function useNavigateEmitted(
  actor: Emitter<{ type: 'navigate'; to: '/' | '/login' | '/force-password-change' }>,
) {
  const navigate = useNavigate()
  useEmitted(
    () => [actor.on('navigate', (event) => void navigate({ to: event.to, replace: true }))],
    [actor, navigate],
  )
}

/** On the machine's `signedIn`, the session starts on the new tokens; the machine navigates. */
export function useSessionLoginEmitted(actor: Emitter<{ type: 'signedIn'; claims: AccessClaims }>) {
  const session = SessionContext.useActorRef()
  useEmitted(
    () => [
      actor.on('signedIn', (event) =>
        session.send({ type: 'session.login', claims: event.claims }),
      ),
    ],
    [actor, session],
  )
}

/** On the machine's `signedIn`, the session starts on the new tokens and the app opens. */
export function useSignedInEmitted(actor: Emitter<{ type: 'signedIn'; claims: AccessClaims }>) {
  const session = SessionContext.useActorRef()
  const navigate = useNavigate()
  useEmitted(
    () => [
      actor.on('signedIn', (event) => {
        session.send({ type: 'session.login', claims: event.claims })
        void navigate({ to: '/', replace: true })
      }),
    ],
    [actor, session, navigate],
  )
}
