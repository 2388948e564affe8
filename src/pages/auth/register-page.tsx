import { Link } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { MailCheck } from 'lucide-react'
import { css } from 'styled-system/css'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import {
  type RegisterField,
  registerMachine,
  registerView,
} from '../../../machines/register/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { useView } from '../../app/use-view.ts'
import { AccountForm } from '../../components/password/account-form.tsx'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'
import { FormAlert, NavButton, PasswordField, StatusScreen, TextField } from './auth-parts.tsx'

/** The register machine with the real API call; tests pass their own `logic`. */
export const createRegisterLogic = (actors = accountActors()) =>
  registerMachine.provide({ actors: { register: actors.register } })

export type RegisterLogic = ReturnType<typeof createRegisterLogic>

const defaultLogic = createRegisterLogic()

const LABELS: Record<RegisterField, string> = {
  email: 'Work Email',
  password: 'Password',
  firstName: 'First name',
  lastName: 'Last name',
  organization: 'Organisation',
}

const consentRow = css({
  display: 'flex',
  alignItems: 'flex-start',
  gap: '2.5',
  textStyle: 'sm',
  color: 'fg.muted',
  cursor: 'pointer',
})
const checkbox = css({
  flexShrink: '0',
  w: '4',
  h: '4',
  mt: '0.5',
  accentColor: 'colorPalette.default',
  cursor: 'pointer',
  _focusVisible: {
    outline: '2px solid',
    outlineColor: 'colorPalette.default',
    outlineOffset: '2px',
  },
})
const submit = css({ w: 'full', mt: '1' })
const terms = css({ textStyle: 'xs', color: 'fg.muted' })

/** /register: 'Create a Free Account' (spec sections 2, 5 and 8). */
export default function RegisterPage({ logic = defaultLogic }: { logic?: RegisterLogic }) {
  const actor = useActorRef(logic)
  const view = useView(actor, registerView)

  if (view.registered) {
    return (
      <StatusScreen
        title="Registration Successful!"
        lead={AUTH_TEXTS.registrationSent}
        tone="success"
        icon={<MailCheck />}
        text={
          <>
            We sent it to <strong>{view.values.email.trim()}</strong>. The link signs you in.
          </>
        }
      >
        <NavButton to="/login">Back to Login</NavButton>
      </StatusScreen>
    )
  }

  const field = (name: RegisterField) => ({
    label: LABELS[name],
    name,
    value: view.values[name],
    onValueChange: (value: string) => actor.send({ type: 'field.change', field: name, value }),
    error: view.missing.includes(name) ? `${LABELS[name]} is required` : null,
    disabled: view.submitting,
    required: true,
  })

  return (
    <AuthLayout
      title="Create a Free Account"
      lead="Set up your organisation's workspace. It takes a minute."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className={authStyles.link}>
            Sign in
          </Link>
        </>
      }
    >
      <AccountForm onSubmit={() => actor.send({ type: 'submit' })}>
        <TextField
          {...field('email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={view.emailError}
          onBlur={() => actor.send({ type: 'email.blur' })}
        />
        <div className={authStyles.row}>
          <TextField {...field('firstName')} autoComplete="given-name" />
          <TextField {...field('lastName')} autoComplete="family-name" />
        </div>
        <TextField {...field('organization')} autoComplete="organization" />
        <PasswordField
          {...field('password')}
          autoComplete="new-password"
          onBlur={() => actor.send({ type: 'password.blur' })}
          error={
            view.missing.includes('password')
              ? `${LABELS.password} is required`
              : view.passwordError
          }
          helper={AUTH_TEXTS.passwordHint}
        />
        <label className={consentRow}>
          <input
            type="checkbox"
            name="marketing_consent"
            className={checkbox}
            checked={view.consent}
            disabled={view.submitting}
            onChange={(event) =>
              actor.send({ type: 'consent.change', value: event.target.checked })
            }
          />
          <span>Send me product updates and news by email (optional)</span>
        </label>
        <p className={terms}>
          By registering you agree to the{' '}
          <a className={authStyles.link} href="/terms" target="_blank" rel="noreferrer">
            Terms of Service
          </a>{' '}
          and the{' '}
          <a className={authStyles.link} href="/privacy" target="_blank" rel="noreferrer">
            Privacy Policy
          </a>
          .
        </p>
        {view.error && <FormAlert>{view.error}</FormAlert>}
        <Button
          type="submit"
          size="lg"
          className={submit}
          loading={view.submitting}
          disabled={!view.canSubmit}
        >
          Register
        </Button>
      </AccountForm>
    </AuthLayout>
  )
}
