import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { Building2, Mail } from 'lucide-react'
import { useId } from 'react'
import { cx } from 'styled-system/css'
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
import { useConsumeSearch } from '../../app/use-consume-search.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { AccountForm } from '../../components/password/account-form.tsx'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'
import {
  divider,
  FormAlert,
  footerStack,
  fullWidth,
  GoogleMark,
  Identity,
  LegalLinks,
  LoginField,
  Notice,
  passwordHeader,
  StepActions,
  smallLink,
} from './login-parts.tsx'

/** The login machine with the real actors; tests pass their own `logic`. */
export const createLoginLogic = (actors = loginActors()) => loginMachine.provide({ actors })

export type LoginLogic = ReturnType<typeof createLoginLogic>

const defaultLogic = createLoginLogic()

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
  useEmitted(
    () => [
      actor.on('signedIn', (event) =>
        session.send({ type: 'session.login', claims: event.claims }),
      ),
      actor.on('navigate', (event) => void navigate({ to: event.to })),
      // another tab signed in: this one is signed in too, so leave the login screen
      session.on('login', () => {
        if (!actor.getSnapshot().hasTag('loading')) void navigate({ to: '/', replace: true })
      }),
    ],
    [actor, session, navigate],
  )
  // the message was read into the machine's input: take it out of the address
  useConsumeSearch(message !== undefined, '/login')

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
          <StepActions
            canSubmit={canSubmit}
            busy={ssoRedirecting}
            busyText="Redirecting..."
            loading={loading}
            onClick={() => actor.send({ type: 'sso.continue' })}
            onBack={() => actor.send({ type: 'back' })}
          >
            Continue to {organization}
          </StepActions>
        </div>
      </AuthLayout>
    )
  }

  if (step === 'password') {
    return (
      <AuthLayout title="Enter password" lead="Enter the password for your account.">
        <AccountForm onSubmit={() => actor.send({ type: 'password.submit' })}>
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
          <StepActions
            canSubmit={canSubmit}
            busy={signingIn}
            busyText="Signing in..."
            loading={loading}
            onBack={() => actor.send({ type: 'back' })}
          >
            Sign in
          </StepActions>
        </AccountForm>
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
      <AccountForm onSubmit={() => actor.send({ type: 'email.submit' })}>
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
      </AccountForm>
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
