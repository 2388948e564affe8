import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { ArrowLeft, Building2, CircleAlert, Eye, EyeOff, Info, Mail } from 'lucide-react'
import {
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  useEffect,
  useId,
  useState,
} from 'react'
import { css, cx } from 'styled-system/css'
import { field, input } from 'styled-system/recipes'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import {
  loginMachine,
  selectCanSubmit,
  selectEmail,
  selectError,
  selectIsChecking,
  selectIsGoogleRedirecting,
  selectIsLoading,
  selectIsSigningIn,
  selectIsSsoRedirecting,
  selectNotice,
  selectOrganization,
  selectPassword,
  selectStep,
} from '../../../machines/login/index.ts'
import { selectSessionExpired } from '../../../machines/session/index.ts'
import { loginActors } from '../../api/auth-actors.ts'
import { SessionContext } from '../../app/session.tsx'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'

/** The login machine with the real actors; tests pass their own `logic`. */
export const createLoginLogic = (actors = loginActors()) => loginMachine.provide({ actors })

export type LoginLogic = ReturnType<typeof createLoginLogic>

const defaultLogic = createLoginLogic()

const fullWidth = css({ w: 'full' })
const divider = css({
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
const identity = css({
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
const identityIcon = css({
  display: 'grid',
  placeItems: 'center',
  flexShrink: '0',
  w: '8',
  h: '8',
  borderRadius: 'full',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
})
const identityText = css({ display: 'flex', flexDirection: 'column', minW: '0' })
const identityLabel = css({ textStyle: 'xs', color: 'fg.muted' })
const identityValue = css({
  textStyle: 'sm',
  fontWeight: 'medium',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
})
const passwordHeader = css({
  display: 'flex',
  justifyContent: 'flex-end',
  mt: '-2',
})
const smallLink = css({ textStyle: 'sm' })
const noticeIcon = css({ flexShrink: '0', mt: '0.5' })
const footerStack = css({ display: 'flex', flexDirection: 'column', gap: '3' })
const legal = css({ textStyle: 'xs', color: 'fg.subtle' })

/** The Google mark, in its own colours. */
function GoogleMark() {
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
const fieldSlots = field()
const inputClass = cx(input(), fieldSlots.input)
const passwordWrap = css({ position: 'relative', w: 'full' })
const passwordRoom = css({ pr: '10' })
const toggle = css({
  position: 'absolute',
  top: '50%',
  right: '1',
  translate: '0 -50%',
  display: 'grid',
  placeItems: 'center',
  w: '8',
  h: '8',
  borderRadius: 'l2',
  color: 'fg.muted',
  bg: 'transparent',
  border: 'none',
  cursor: 'pointer',
  _hover: { color: 'fg.default', bg: 'gray.a3' },
  _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default' },
})

type NativeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  label: string
  value: string
  onValueChange: (value: string) => void
  /** Marks the input invalid and points it at the error above the form. */
  errorId?: string | undefined
}

/** A labelled text input (the password one adds a show/hide toggle). */
function LoginField({
  label,
  value,
  onValueChange,
  errorId,
  type = 'text',
  ...rest
}: NativeInputProps) {
  const id = useId()
  const [visible, setVisible] = useState(false)
  const password = type === 'password'
  const control = (
    <input
      {...rest}
      id={id}
      type={password && visible ? 'text' : type}
      className={cx(inputClass, password && passwordRoom)}
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
      {password ? (
        <div className={passwordWrap}>
          {control}
          <button
            type="button"
            className={toggle}
            aria-label={visible ? 'Hide password' : 'Show password'}
            aria-pressed={visible}
            onClick={() => setVisible((shown) => !shown)}
          >
            {visible ? <EyeOff size={16} aria-hidden /> : <Eye size={16} aria-hidden />}
          </button>
        </div>
      ) : (
        control
      )}
    </div>
  )
}

/** An error in the spec's words. */
function FormAlert(props: { id?: string; children: ReactNode }) {
  return (
    <div id={props.id} role="alert" className={authStyles.alert}>
      <CircleAlert size={16} aria-hidden className={noticeIcon} />
      <span>{props.children}</span>
    </div>
  )
}

/** Information that is not an error ('Unable to check SSO status...', the expired session). */
function Notice(props: { children: ReactNode }) {
  return (
    <div role="status" className={authStyles.notice}>
      <Info size={16} aria-hidden className={noticeIcon} />
      <span>{props.children}</span>
    </div>
  )
}

/** The address being signed in, on the sso and password steps. */
function Identity(props: { icon: ReactNode; label: string; value: string }) {
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

function LegalLinks() {
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

const prevent = (send: () => void) => (event: FormEvent) => {
  event.preventDefault()
  send()
}

/**
 * /login: the three-step sign-in (spec sections 2, 4, 5 and 8). The `message` query parameter
 * selects an SSO error text and is then removed from the address.
 */
export default function LoginPage({ logic = defaultLogic }: { logic?: LoginLogic }) {
  const search: { message?: unknown } = useSearch({ strict: false })
  const message = typeof search.message === 'string' ? search.message : undefined
  const navigate = useNavigate()
  const session = SessionContext.useActorRef()
  const sessionExpired = SessionContext.useSelector(selectSessionExpired)
  const actor = useActorRef(logic, { input: { message } })

  const step = useSelector(actor, selectStep)
  const email = useSelector(actor, selectEmail)
  const password = useSelector(actor, selectPassword)
  const error = useSelector(actor, selectError)
  const notice = useSelector(actor, selectNotice)
  const organization = useSelector(actor, selectOrganization)
  const loading = useSelector(actor, selectIsLoading)
  const canSubmit = useSelector(actor, selectCanSubmit)
  const checking = useSelector(actor, selectIsChecking)
  const signingIn = useSelector(actor, selectIsSigningIn)
  const ssoRedirecting = useSelector(actor, selectIsSsoRedirecting)
  const googleRedirecting = useSelector(actor, selectIsGoogleRedirecting)
  const errorId = useId()
  const describedBy = error ? errorId : undefined

  // the machine decides; the view tells the session and moves the router
  useEffect(() => {
    const subscriptions = [
      actor.on('signedIn', (event) =>
        session.send({ type: 'session.login', claims: event.claims }),
      ),
      actor.on('navigate', (event) => void navigate({ to: event.to })),
      // another tab signed in: this one is signed in too, so leave the login screen
      session.on('login', () => {
        if (!actor.getSnapshot().hasTag('loading')) void navigate({ to: '/', replace: true })
      }),
    ]
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    }
  }, [actor, session, navigate])

  // the message was read into the machine's input: take it out of the address
  useEffect(() => {
    if (message !== undefined) void navigate({ to: '/login', search: {}, replace: true })
  }, [message, navigate])

  const alerts = (
    <>
      {sessionExpired && step === 'email' && !error && <Notice>{AUTH_TEXTS.sessionExpired}</Notice>}
      {error && <FormAlert id={errorId}>{error}</FormAlert>}
      {notice && <Notice>{notice}</Notice>}
    </>
  )

  if (step === 'sso') {
    return (
      <AuthLayout title="Sign in with SSO" lead="Your organization signs in with single sign-on.">
        <div className={authStyles.form}>
          <Identity icon={<Building2 size={16} />} label={organization} value={email} />
          {alerts}
          <div className={authStyles.actions}>
            <Button
              type="button"
              className={fullWidth}
              disabled={!canSubmit}
              loading={ssoRedirecting}
              loadingText="Redirecting..."
              onClick={() => actor.send({ type: 'sso.continue' })}
            >
              Continue to {organization}
            </Button>
            <Button
              type="button"
              variant="ghost"
              className={fullWidth}
              disabled={loading}
              onClick={() => actor.send({ type: 'back' })}
            >
              <ArrowLeft size={16} aria-hidden />
              Back to email
            </Button>
          </div>
        </div>
      </AuthLayout>
    )
  }

  if (step === 'password') {
    return (
      <AuthLayout title="Enter password" lead="Enter the password for your account.">
        <form
          className={authStyles.form}
          noValidate
          onSubmit={prevent(() => actor.send({ type: 'password.submit' }))}
        >
          <Identity icon={<Mail size={16} />} label="Signing in as" value={email} />
          {/* lets password managers pair the password with the address */}
          <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
          {alerts}
          {googleRedirecting && <Notice>Redirecting to Google...</Notice>}
          <LoginField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onValueChange={(value) => actor.send({ type: 'password.change', value })}
            disabled={loading}
            errorId={describedBy}
          />
          <div className={passwordHeader}>
            <Link to="/forgot-password" className={cx(authStyles.link, smallLink)}>
              Forgot your password?
            </Link>
          </div>
          <div className={authStyles.actions}>
            <Button
              type="submit"
              className={fullWidth}
              disabled={!canSubmit}
              loading={signingIn}
              loadingText="Signing in..."
            >
              Sign in
            </Button>
            <Button
              type="button"
              variant="ghost"
              className={fullWidth}
              disabled={loading}
              onClick={() => actor.send({ type: 'back' })}
            >
              <ArrowLeft size={16} aria-hidden />
              Back to email
            </Button>
          </div>
        </form>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout
      title="Sign in"
      lead="Welcome back. Enter your work email to continue."
      footer={
        <div className={footerStack}>
          <p>
            Don't have an account?{' '}
            <Link to="/register" className={authStyles.link}>
              Create one
            </Link>
          </p>
          <LegalLinks />
        </div>
      }
    >
      <form
        className={authStyles.form}
        noValidate
        onSubmit={prevent(() => actor.send({ type: 'email.submit' }))}
      >
        {alerts}
        <LoginField
          label="Work Email"
          // text, not email: browsers strip the spaces of an email input, and a blank-looking
          // address must get 'Please enter your email address' (spec section 5)
          type="text"
          name="email"
          autoComplete="username"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="you@company.com"
          autoFocus
          value={email}
          onValueChange={(value) => actor.send({ type: 'email.change', value })}
          errorId={describedBy}
        />
        <Button
          type="submit"
          className={fullWidth}
          disabled={!canSubmit}
          loading={checking}
          loadingText="Continue"
        >
          Continue
        </Button>
      </form>
      <div className={divider}>Or continue with</div>
      <Button
        type="button"
        variant="outline"
        className={fullWidth}
        disabled={loading}
        loading={googleRedirecting}
        loadingText="Redirecting to Google..."
        onClick={() => actor.send({ type: 'google.start' })}
      >
        <GoogleMark />
        Google
      </Button>
    </AuthLayout>
  )
}
