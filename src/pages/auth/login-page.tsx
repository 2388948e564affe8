import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { Building2, Mail } from 'lucide-react'
import { useId } from 'react'
import { cx } from 'styled-system/css'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { loginMachine, loginView } from '../../../machines/login/index.ts'
import { selectSessionExpired } from '../../../machines/session/index.ts'
import { loginActors } from '../../api/auth-actors.ts'
import { SessionContext } from '../../app/session.tsx'
import { useConsumeSearch } from '../../app/use-consume-search.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
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

  const view = useView(actor, loginView)
  const errorId = useId()
  const describedBy = view.error ? errorId : undefined

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
      {sessionExpired && view.step === 'email' && !view.error && (
        <Notice>{AUTH_TEXTS.sessionExpired}</Notice>
      )}
      {view.error && <FormAlert id={errorId}>{view.error}</FormAlert>}
      {view.notice && <Notice>{view.notice}</Notice>}
    </>
  )

  if (view.step === 'sso') {
    return (
      <AuthLayout title="Sign in with SSO" lead="Your organisation signs in with single sign-on.">
        <div className={authStyles.form}>
          <Identity icon={<Building2 size={16} />} label={view.organization} value={view.email} />
          {alerts}
          <StepActions
            canSubmit={view.canSubmit}
            busy={view.ssoRedirecting}
            busyText="Redirecting..."
            loading={view.loading}
            onClick={() => actor.send({ type: 'sso.continue' })}
            onBack={() => actor.send({ type: 'back' })}
          >
            Continue to {view.organization}
          </StepActions>
        </div>
      </AuthLayout>
    )
  }

  if (view.step === 'password') {
    return (
      <AuthLayout title="Enter password" lead="Enter the password for your account.">
        <AccountForm onSubmit={() => actor.send({ type: 'password.submit' })}>
          <Identity icon={<Mail size={16} />} label="Signing in as" value={view.email} />
          {/* lets password managers pair the password with the address */}
          <input
            type="email"
            name="email"
            autoComplete="username"
            value={view.email}
            readOnly
            hidden
          />
          {alerts}
          {view.googleRedirecting && <Notice>Redirecting to Google...</Notice>}
          <LoginField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            autoFocus
            value={view.password}
            onValueChange={(value) => actor.send({ type: 'password.change', value })}
            disabled={view.loading}
            errorId={describedBy}
          />
          <div className={passwordHeader}>
            <Link to="/forgot-password" className={cx(authStyles.link, smallLink)}>
              Forgot your password?
            </Link>
          </div>
          <StepActions
            canSubmit={view.canSubmit}
            busy={view.signingIn}
            busyText="Signing in..."
            loading={view.loading}
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
          value={view.email}
          onValueChange={(value) => actor.send({ type: 'email.change', value })}
          errorId={describedBy}
        />
        <Button
          type="submit"
          className={fullWidth}
          disabled={!view.canSubmit}
          loading={view.checking}
          loadingText="Continue"
        >
          Continue
        </Button>
      </AccountForm>
      {view.googleOffered && (
        <>
          <div className={divider}>Or continue with</div>
          <Button
            type="button"
            variant="outline"
            className={fullWidth}
            disabled={view.loading}
            loading={view.googleRedirecting}
            loadingText="Redirecting to Google..."
            onClick={() => actor.send({ type: 'google.start' })}
          >
            <GoogleMark />
            Google
          </Button>
        </>
      )}
    </AuthLayout>
  )
}
