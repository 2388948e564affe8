import { randomBytes } from 'node:crypto'
import type { Logger } from '../../logger.ts'
import { type Browser, bindingSecret, SsoFailure, type SsoFlows } from './flows.ts'
import { type IdpMetadata, parseIdpMetadata, type Saml } from './saml.ts'
import type { SsoRow, SsoSettingsService } from './settings.ts'

/**
 * The SAML sign-in (microsoft_saml): the same flow rows, member rules and one-time code as the
 * OpenID Connect one (flows.ts); the state travels as RelayState. The IdP posts its response from
 * its own site, so the browser's SameSite=Lax binding cookie does not come with it: the code it
 * leads to carries the flow's binding, and the exchange checks it.
 */
export function createSamlFlows(deps: {
  saml: Saml
  flows: SsoFlows
  settings: SsoSettingsService
  logger: Logger
  publicUrl: string
  /** Metadata given by address, read again (a rotated certificate); undefined when unchanged. */
  rereadMetadata: (orgId: number) => Promise<string | undefined>
}) {
  const log = deps.logger.child({ component: 'sso' })

  function metadataOf(settings: SsoRow): IdpMetadata {
    try {
      return parseIdpMetadata(settings.metadata_xml ?? '')
    } catch (error) {
      log.warn({ err: String(error) }, 'SAML metadata unusable')
      throw new SsoFailure('provider_error')
    }
  }

  /** GET login/microsoft_saml/?email=: the provider's sign-in address. */
  async function start(email: string | undefined, browser: Browser) {
    const settings = email ? await deps.settings.forEmail(email) : undefined
    if (!settings) throw new SsoFailure('sso_not_enabled')
    if (settings.provider !== 'microsoft_saml') throw new SsoFailure('invalid_provider')
    const orgId = Number(settings.org_id)
    const state = randomBytes(24).toString('base64url')
    const url = await deps.saml.start(orgId, metadataOf(settings), state)
    const secret = bindingSecret(browser)
    await deps.flows.saveFlow(state, {
      orgId,
      provider: 'microsoft_saml',
      verifier: 'saml',
      nonce: '',
      email: email?.trim().toLowerCase() ?? null,
      secret,
    })
    return { url, secret }
  }

  /** POST callback/microsoft_saml/ (SAMLResponse, RelayState): where the browser goes next. */
  async function callback(form: { SAMLResponse?: string; RelayState?: string }): Promise<string> {
    if (!form.SAMLResponse) throw new SsoFailure('invalid_session')
    const flow = await deps.flows.takeFlow(form.RelayState, 'microsoft_saml', 'cross-site')
    const settings = flow.org_id ? await deps.settings.row(Number(flow.org_id)) : undefined
    if (!settings?.enabled || settings.provider !== 'microsoft_saml')
      throw new SsoFailure('sso_not_enabled')
    const orgId = Number(settings.org_id)
    const reread = async () => {
      if (!settings.metadata_url) return undefined
      const xml = await deps.rereadMetadata(orgId).catch((error: unknown) => {
        log.warn({ err: String(error) }, 'SAML metadata could not be read again')
        return undefined
      })
      return xml ? parseIdpMetadata(xml) : undefined
    }
    const identity = await deps.saml
      .complete(orgId, metadataOf(settings), form.SAMLResponse, reread)
      .catch((error: unknown) => {
        log.warn({ err: String(error) }, 'SAML response refused')
        throw new SsoFailure('provider_error')
      })
    const userId = await deps.flows.resolveMember(settings, identity)
    return deps.flows.issueCode(userId, flow.browser_hash)
  }

  return { start, callback }
}
