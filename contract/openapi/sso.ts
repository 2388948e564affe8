import * as z from 'zod/mini'
import { ssoDiscoverRequestSchema, ssoDiscoverResponseSchema } from '../auth.ts'
import { paths, type SsoProvider } from '../paths.ts'
import {
  googleCallbackQuerySchema,
  googleCallbackResponseSchema,
  googleStartResponseSchema,
  ssoExchangeRequestSchema,
  ssoExchangeResponseSchema,
  ssoLoginQuerySchema,
  ssoProvidersStatusSchema,
  ssoSettingsSchema,
  ssoSettingsUpdateSchema,
} from '../sso.ts'
import { type OperationDocs, op } from './operation.ts'

const S = paths.sso
const PROVIDER = '{provider}' as SsoProvider

/** Single sign-on (OIDC and SAML) and Google sign-in. */
export const ssoOperations: OperationDocs = {
  [op('POST', S.discover)]: {
    summary: 'Whether an email address signs in with single sign-on, and with which provider',
    access: 'public',
    body: ssoDiscoverRequestSchema,
    response: ssoDiscoverResponseSchema,
  },
  [op('GET', S.providersStatus)]: {
    summary: 'Which sign-in methods this instance offers',
    access: 'public',
    response: ssoProvidersStatusSchema,
  },
  [op('GET', S.login(PROVIDER))]: {
    summary: 'Start single sign-on: the browser is sent to the organisation’s identity provider',
    description:
      'A browser navigation, not a call: it redirects to the provider, or back to /login with a `message` code when sign-in cannot start.',
    access: 'public',
    query: ssoLoginQuerySchema,
    status: 302,
    produces: 'redirect',
  },
  [op('GET', S.callback(PROVIDER))]: {
    summary: 'The identity provider’s return: the browser is sent on with a one-time code',
    description:
      'Redirects to the app’s /auth/callback with a code to exchange, or to /login with a `message` code when sign-in failed.',
    access: 'public',
    status: 302,
    produces: 'redirect',
  },
  [op('POST', S.callback('microsoft_saml'))]: {
    summary: 'The SAML identity provider’s posted response: the browser is sent on with a code',
    description:
      'The identity provider posts the form fields `SAMLResponse` and `RelayState` (URL-encoded).',
    access: 'public',
    multipart: { fields: ['SAMLResponse', 'RelayState'] },
    status: 302,
    produces: 'redirect',
  },
  [op('POST', S.exchange)]: {
    summary: 'Exchange the one-time code of single sign-on for a session',
    description: 'Only from the browser that started the sign-in (its binding cookie).',
    access: 'public',
    body: ssoExchangeRequestSchema,
    response: ssoExchangeResponseSchema,
  },
  [op('GET', paths.auth.googleStart)]: {
    summary: 'Where the browser goes to sign in with Google',
    access: 'public',
    response: googleStartResponseSchema,
  },
  [op('GET', paths.auth.googleCallback)]: {
    summary: 'Complete a Google sign-in with what Google sent back, and start a session',
    access: 'public',
    query: googleCallbackQuerySchema,
    response: googleCallbackResponseSchema,
  },
  [op('GET', S.settings)]: {
    summary: 'The organisation’s single sign-on settings (the client secret is never shown)',
    access: 'organization.manage',
    response: ssoSettingsSchema,
  },
  [op('POST', S.settingsUpdate)]: {
    summary: 'Save the organisation’s single sign-on settings',
    access: 'organization.manage',
    body: ssoSettingsUpdateSchema,
    response: z.object({ data: ssoSettingsSchema }),
  },
  [op('POST', S.test)]: {
    summary: 'Check settings being edited by reading the provider’s discovery document',
    access: 'organization.manage',
    body: ssoSettingsUpdateSchema,
    response: z.object({ ok: z.boolean(), message: z.string() }),
  },
}
