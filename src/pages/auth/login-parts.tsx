import { ArrowLeft, CircleAlert, Info } from 'lucide-react'
import { type InputHTMLAttributes, type ReactNode, useId } from 'react'
import { css, cx } from 'styled-system/css'
import { field, input } from 'styled-system/recipes'
import { PasswordReveal, revealRoom } from '../../components/password/password-reveal.tsx'
import { Button } from '../../components/ui/button.tsx'
import { authStyles } from './auth-layout.tsx'

/** The pieces of the login page: fields, notices, identity lines and the legal links. */

export const fullWidth = css({ w: 'full' })
export const divider = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  color: 'fg.subtle',
  textStyle: 'xs',
  fontWeight: 'medium',
  _before: { content: '""', flex: '1', h: '1px', bg: 'border.subtle' },
  _after: { content: '""', flex: '1', h: '1px', bg: 'border.subtle' },
})
// a grid with a minmax(0, 1fr) track: a long address is cut with an ellipsis instead of
// widening the card on a phone
export const identity = css({
  display: 'grid',
  gridTemplateColumns: 'auto minmax(0, 1fr)',
  alignItems: 'center',
  gap: '3',
  px: '3',
  py: '2.5',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.subtle',
  minW: '0',
})
export const identityIcon = css({
  display: 'grid',
  placeItems: 'center',
  flexShrink: '0',
  w: '8',
  h: '8',
  borderRadius: 'full',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
})
export const identityText = css({ display: 'flex', flexDirection: 'column', minW: '0' })
export const identityLabel = css({ textStyle: 'xs', color: 'fg.muted' })
export const identityValue = css({
  textStyle: 'sm',
  fontWeight: 'medium',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
})
export const passwordHeader = css({
  display: 'flex',
  justifyContent: 'flex-end',
  mt: '-2',
})
export const smallLink = css({ textStyle: 'sm' })
export const noticeIcon = css({ flexShrink: '0', mt: '0.5' })
export const footerStack = css({ display: 'flex', flexDirection: 'column', gap: '3' })
export const legal = css({ textStyle: 'xs', color: 'fg.subtle' })

/** The Google mark, in its own colours. */
export function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden role="presentation">
      <path
        fill="#4285F4"
        d="M23.5 12.27c0-.85-.08-1.67-.22-2.45H12v4.64h6.46a5.52 5.52 0 0 1-2.4 3.62v3h3.88c2.27-2.09 3.56-5.17 3.56-8.81Z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.24 0 5.96-1.07 7.94-2.91l-3.88-3.01c-1.07.72-2.45 1.15-4.06 1.15-3.13 0-5.77-2.11-6.72-4.95H1.27v3.11A12 12 0 0 0 12 24Z"
      />
      <path
        fill="#FBBC05"
        d="M5.28 14.28A7.2 7.2 0 0 1 4.9 12c0-.79.14-1.56.38-2.28V6.61H1.27A12 12 0 0 0 0 12c0 1.94.46 3.77 1.27 5.39l4.01-3.11Z"
      />
      <path
        fill="#EA4335"
        d="M12 4.77c1.76 0 3.34.61 4.59 1.8l3.44-3.44A11.5 11.5 0 0 0 12 0 12 12 0 0 0 1.27 6.61l4.01 3.11C6.23 6.88 8.87 4.77 12 4.77Z"
      />
    </svg>
  )
}

// /login is the first screen, inside the 150 KB budget: its two fields are native inputs dressed
// with the Park UI field and input recipes, because Ark's Field brings @zag-js/react (about 5 KB).
export const fieldSlots = field()
export const inputClass = cx(input(), fieldSlots.input)

type NativeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  label: string
  value: string
  onValueChange: (value: string) => void
  /** Marks the input invalid and points it at the error above the form. */
  errorId?: string | undefined
}

/** A labelled text input (the password one adds a show/hide toggle). */
export function LoginField({
  label,
  value,
  onValueChange,
  errorId,
  type = 'text',
  ...rest
}: NativeInputProps) {
  const id = useId()
  const password = type === 'password'
  const control = (visible: boolean) => (
    <input
      {...rest}
      id={id}
      type={password && visible ? 'text' : type}
      className={cx(inputClass, password && revealRoom)}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      aria-invalid={errorId ? true : undefined}
      data-invalid={errorId ? '' : undefined}
      aria-describedby={errorId}
    />
  )
  return (
    <div className={cx(fieldSlots.root, fullWidth)}>
      <label htmlFor={id} className={fieldSlots.label}>
        {label}
      </label>
      {password ? <PasswordReveal>{control}</PasswordReveal> : control(false)}
    </div>
  )
}

/**
 * The buttons of the sso and password steps: the step's main one (a submit unless it has its own
 * `onClick`), then 'Back to email', which only waits while something is under way.
 */
export function StepActions(props: {
  canSubmit: boolean
  busy: boolean
  busyText: string
  loading: boolean
  onClick?: () => void
  onBack: () => void
  children: ReactNode
}) {
  return (
    <div className={authStyles.actions}>
      <Button
        type={props.onClick ? 'button' : 'submit'}
        className={fullWidth}
        disabled={!props.canSubmit}
        loading={props.busy}
        loadingText={props.busyText}
        onClick={props.onClick}
      >
        {props.children}
      </Button>
      <Button
        type="button"
        variant="ghost"
        className={fullWidth}
        disabled={props.loading}
        onClick={props.onBack}
      >
        <ArrowLeft size={16} aria-hidden />
        Back to email
      </Button>
    </div>
  )
}

/** An error in the spec's words. */
export function FormAlert(props: { id?: string; children: ReactNode }) {
  return (
    <div id={props.id} role="alert" className={authStyles.alert}>
      <CircleAlert size={16} aria-hidden className={noticeIcon} />
      <span>{props.children}</span>
    </div>
  )
}

/** Information that is not an error ('Unable to check SSO status...', the expired session). */
export function Notice(props: { children: ReactNode }) {
  return (
    <div role="status" className={authStyles.notice}>
      <Info size={16} aria-hidden className={noticeIcon} />
      <span>{props.children}</span>
    </div>
  )
}

/** The address being signed in, on the sso and password steps. */
export function Identity(props: { icon: ReactNode; label: string; value: string }) {
  return (
    <div className={identity}>
      <span className={identityIcon}>{props.icon}</span>
      <span className={identityText}>
        <span className={identityLabel}>{props.label}</span>
        <span className={identityValue} title={props.value}>
          {props.value}
        </span>
      </span>
    </div>
  )
}

export function LegalLinks() {
  return (
    <p className={legal}>
      By continuing you agree to our{' '}
      <a className={authStyles.link} href="/terms">
        Terms of Service
      </a>{' '}
      and{' '}
      <a className={authStyles.link} href="/privacy">
        Privacy Policy
      </a>
      .
    </p>
  )
}
