import { ERROR_CODES } from '../../../contract/errors.ts'
import { apiPath, paths, type SsoProvider } from '../../../contract/paths.ts'
import {
  SSO_TEXTS,
  type SsoSettings,
  type SsoSettingsUpdate,
  type ssoSettingsUpdateSchema,
} from '../../../contract/sso.ts'
import type { AuthContext } from '../../auth/context.ts'
import type { Database } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import type { Oidc, OidcClientSettings } from './oidc.ts'
import { parseIdpMetadata } from './saml.ts'
import type { SecretBox } from './secrets.ts'

type Update = ReturnType<(typeof ssoSettingsUpdateSchema)['parse']>

export interface SsoRow {
  org_id: string
  enabled: boolean
  provider: SsoProvider
  issuer: string | null
  client_id: string | null
  client_secret: string | null
  metadata_url: string | null
  metadata_xml: string | null
  metadata_fetched_at: Date | null
  domains: string[]
  enforce_sso: boolean
  jit_provisioning: boolean
}

/** The server's own Google client (GOOGLE_*), for Google sign-in and orgs that require it. */
export interface GoogleSettings {
  clientId: string
  clientSecret: string
  /** https://accounts.google.com, or a test's loopback provider. */
  issuer: string
}

export const isOidc = (provider: SsoProvider) => provider !== 'microsoft_saml'

const invalid = (text: string) => apiError(400, text, { msg: text, code: ERROR_CODES.validation })

/**
 * Each organisation's identity provider (admins): OIDC providers by issuer, client id and secret
 * (the secret sealed at rest, never echoed), Google through the server's own client, the email
 * domains whose people sign in there (verified domains of the organisation only), whether it is
 * required (AS12) and whether people are created at their first sign-in. Saving checks that the
 * issuer answers, and is audited without the secret.
 */
export function createSsoSettings(deps: {
  database: Database
  secrets: SecretBox
  oidc: Oidc
  google?: GoogleSettings
  publicUrl: string
  /** Reads metadata by address through the guarded fetch (SS1-SS4). */
  fetchMetadata: (url: string) => Promise<string>
}) {
  const { pool } = deps.database

  const redirectUri = (provider: SsoProvider) =>
    `${deps.publicUrl}${apiPath(paths.sso.callback(provider))}`

  async function row(orgId: number): Promise<SsoRow | undefined> {
    const { rows } = await pool.query<SsoRow>('select * from sso_settings where org_id = $1', [
      orgId,
    ])
    return rows[0]
  }

  function view(settings: SsoRow | undefined): SsoSettings {
    return {
      enabled: settings?.enabled ?? false,
      provider: settings?.provider ?? null,
      issuer: settings?.issuer ?? null,
      client_id: settings?.client_id ?? null,
      has_client_secret: Boolean(settings?.client_secret),
      metadata_url: settings?.metadata_url ?? null,
      metadata_xml: settings?.metadata_xml ?? null,
      domains: settings?.domains ?? [],
      enforce_sso: settings?.enforce_sso ?? false,
      jit_provisioning: settings?.jit_provisioning ?? false,
      redirect_uri: settings ? redirectUri(settings.provider) : null,
      entity_id: `${deps.publicUrl}/api/v1/admin/sso/saml/`,
    }
  }

  /** The OIDC client of a settings row (Google's from the server's configuration). */
  function clientOf(
    settings: Pick<SsoRow, 'provider' | 'issuer' | 'client_id' | 'client_secret'>,
  ): OidcClientSettings | undefined {
    if (settings.provider === 'google')
      return deps.google
        ? {
            issuer: deps.google.issuer,
            clientId: deps.google.clientId,
            clientSecret: deps.google.clientSecret,
          }
        : undefined
    if (!isOidc(settings.provider) || !settings.issuer || !settings.client_id) return undefined
    return {
      issuer: settings.issuer,
      clientId: settings.client_id,
      clientSecret: settings.client_secret ? deps.secrets.open(settings.client_secret) : '',
    }
  }

  async function check(orgId: number, input: Update, before: SsoRow | undefined) {
    if (input.enforce_sso && !input.enabled) throw invalid(SSO_TEXTS.enforceNeedsEnabled)
    if (input.enabled && !input.domains.length) throw invalid(SSO_TEXTS.domainRequired)
    if (input.domains.length) {
      const { rows } = await pool.query<{ domain: string }>(
        'select domain from organization_domains where org_id = $1 and domain = any($2::text[])',
        [orgId, input.domains],
      )
      const verified = new Set(rows.map((r) => r.domain))
      const foreign = input.domains.find((domain) => !verified.has(domain))
      if (foreign) throw invalid(SSO_TEXTS.domainNotVerified.replace('{domain}', foreign))
    }
    if (!input.enabled) return
    if (input.provider === 'google') {
      if (!deps.google) throw invalid(SSO_TEXTS.googleDisabled)
      return
    }
    if (input.provider === 'microsoft_saml') {
      if (!input.metadata_url && !input.metadata_xml) throw invalid(SSO_TEXTS.metadataRequired)
      return
    }
    if (!input.issuer) throw invalid(SSO_TEXTS.issuerRequired)
    if (!input.client_id) throw invalid(SSO_TEXTS.clientIdRequired)
    if (!input.client_secret && !before?.client_secret)
      throw invalid(SSO_TEXTS.clientSecretRequired)
  }

  /**
   * The stored secret goes only to the provider it was entered for: another provider or issuer
   * needs it typed again (it would be posted to the new issuer's token endpoint).
   */
  function storedSecretFor(
    input: Pick<Update, 'provider' | 'issuer' | 'client_secret'>,
    before: SsoRow | undefined,
  ): string | null {
    if (input.client_secret) return deps.secrets.seal(input.client_secret)
    if (!before?.client_secret || !input.issuer) return null
    if (before.provider !== input.provider || (before.issuer ?? '') !== (input.issuer ?? '')) {
      if (isOidc(input.provider) && input.provider !== 'google')
        throw invalid(SSO_TEXTS.clientSecretReenter)
      return null
    }
    return before.client_secret
  }

  /** 'Test connection' with the form's values (the stored secret only for its own issuer). */
  async function testInput(orgId: number, input: Update) {
    const before = await row(orgId)
    return test({
      provider: input.provider,
      issuer: input.issuer ?? null,
      client_id: input.client_id ?? null,
      client_secret: storedSecretFor(input, before),
    })
  }

  /** Reads the provider's discovery document with these settings: the 'test connection'. */
  async function test(
    settings: Pick<SsoRow, 'provider' | 'issuer' | 'client_id' | 'client_secret'>,
  ) {
    // the discovery document needs only the issuer (issue 30): the client id is asked for when
    // the settings are saved, and a test without one says so
    if (settings.provider !== 'google' && !settings.issuer) throw invalid(SSO_TEXTS.issuerRequired)
    const withoutClient = settings.provider !== 'google' && !settings.client_id
    const oidcClient = clientOf(
      withoutClient ? { ...settings, client_id: 'quire-connection-test' } : settings,
    )
    if (!oidcClient) throw invalid(SSO_TEXTS.googleDisabled)
    try {
      await deps.oidc.configOf(oidcClient)
    } catch (error) {
      throw apiError(400, SSO_TEXTS.discoveryFailed, {
        msg: error instanceof Error ? error.message : SSO_TEXTS.discoveryFailed,
        code: ERROR_CODES.validation,
      })
    }
    return {
      ok: true,
      message: withoutClient
        ? `${SSO_TEXTS.testOk} ${SSO_TEXTS.testNeedsClient}`
        : SSO_TEXTS.testOk,
    }
  }

  async function update(auth: AuthContext, body: SsoSettingsUpdate, requestId: string) {
    const input = body as Update
    const orgId = auth.org.id
    const before = await row(orgId)
    await check(orgId, input, before)
    const secret = storedSecretFor(input, before)
    const next = {
      provider: input.provider,
      issuer: input.issuer || null,
      client_id: input.client_id || null,
      client_secret: secret,
    }
    if (input.enabled && isOidc(input.provider)) await test(next)
    // SAML: the metadata must name the provider's sign-in address and signing certificate
    let metadataXml = input.metadata_xml || null
    let fetchedAt: Date | null = null
    if (input.provider === 'microsoft_saml' && (metadataXml || input.metadata_url)) {
      if (!metadataXml && input.metadata_url) {
        metadataXml = await deps.fetchMetadata(input.metadata_url)
        fetchedAt = new Date()
      }
      try {
        parseIdpMetadata(metadataXml ?? '')
      } catch (error) {
        throw invalid(
          `${SSO_TEXTS.metadataInvalid} ${error instanceof Error ? error.message : ''}`.trim(),
        )
      }
    }
    await pool.query(
      `insert into sso_settings (org_id, enabled, provider, issuer, client_id, client_secret,
                                 metadata_url, metadata_xml, domains, enforce_sso, jit_provisioning,
                                 metadata_fetched_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
       on conflict (org_id) do update set enabled = excluded.enabled, provider = excluded.provider,
         issuer = excluded.issuer, client_id = excluded.client_id, client_secret = excluded.client_secret,
         metadata_url = excluded.metadata_url, metadata_xml = excluded.metadata_xml,
         metadata_fetched_at = excluded.metadata_fetched_at,
         domains = excluded.domains, enforce_sso = excluded.enforce_sso,
         jit_provisioning = excluded.jit_provisioning, updated_at = now()`,
      [
        orgId,
        input.enabled,
        input.provider,
        next.issuer,
        next.client_id,
        secret,
        input.metadata_url || null,
        metadataXml,
        input.domains,
        input.enforce_sso,
        input.jit_provisioning,
        fetchedAt,
      ],
    )
    const after = await row(orgId)
    const audited = (settings: SsoRow | undefined) => {
      const { has_client_secret, redirect_uri, entity_id, metadata_xml, ...rest } = view(settings)
      return { ...rest, client_secret_set: has_client_secret, metadata_xml: Boolean(metadata_xml) }
    }
    await pool.query(
      `insert into audit_events (org_id, actor_id, action, target, request_id, detail)
       values ($1, $2, 'sso.updated', $3, $4, $5)`,
      [
        orgId,
        auth.user.id,
        `organization:${orgId}`,
        requestId,
        {
          before: audited(before),
          after: audited(after),
          ...(input.client_secret ? { secret_changed: true } : {}),
        },
      ],
    )
    return view(after)
  }

  /**
   * The enabled settings that govern an address: its member's own organisation (when the address
   * is at one of its single sign-on domains, or the organisation requires SSO), else, for an
   * address without an account, the organisation that proved the domain by DNS and signs it in
   * with SSO. Another organisation's settings never reach a member.
   */
  async function forEmail(email: string) {
    const address = email.trim().toLowerCase()
    const domain = address.split('@')[1]
    if (!domain) return undefined
    const { rows } = await pool.query<SsoRow & { org_name: string }>(
      `with member as (
         select org_id from users where lower(email) = $2 and status <> 'removed'
       )
       select s.*, o.name as org_name from sso_settings s join organizations o on o.id = s.org_id
        where s.enabled and (
          (s.org_id = (select org_id from member) and ($1 = any(s.domains) or s.enforce_sso))
          or (not exists (select 1 from member) and $1 = any(s.domains) and exists (
                select 1 from organization_domains d
                 where d.org_id = s.org_id and d.domain = $1 and d.dns_verified_at is not null)))
        limit 1`,
      [domain, address],
    )
    return rows[0]
  }

  /** The settings' domains that are still verified domains of the organisation. */
  async function domainsOf(settings: Pick<SsoRow, 'org_id' | 'domains'>) {
    const { rows } = await pool.query<{ domain: string }>(
      'select domain from organization_domains where org_id = $1 and domain = any($2::text[])',
      [settings.org_id, settings.domains],
    )
    return rows.map((r) => r.domain)
  }

  return {
    row,
    view,
    get: async (orgId: number) => view(await row(orgId)),
    update,
    test,
    testInput,
    forEmail,
    domainsOf,
    clientOf,
    redirectUri,
  }
}

export type SsoSettingsService = ReturnType<typeof createSsoSettings>
