import type { Database } from '../../db/index.ts'
import type { Logger } from '../../logger.ts'
import { createSsoFlows } from './flows.ts'
import { metadataFetcher, rereadMetadata } from './metadata.ts'
import { createOidc } from './oidc.ts'
import { createSaml } from './saml.ts'
import { createSamlFlows } from './saml-flows.ts'
import { createSecretBox } from './secrets.ts'
import { createSsoSettings, type GoogleSettings } from './settings.ts'

/**
 * Single sign-on composed (spec section 7 'SSO' and Google sign-in): each organisation's provider
 * settings, the OIDC and Google flows, and the SAML flows over them.
 */
export function createSsoService(deps: {
  database: Database
  logger: Logger
  publicUrl: string
  jwtSecret: string
  urlFetchAllow: string[]
  google?: GoogleSettings
  now: () => Date
  startSession: (userId: number) => Promise<{ access: string; refresh: string; email: string }>
}) {
  const oidc = createOidc({ allow: deps.urlFetchAllow })
  const fetchMetadata = metadataFetcher(deps.urlFetchAllow)
  const settings = createSsoSettings({
    database: deps.database,
    secrets: createSecretBox(deps.jwtSecret),
    oidc,
    google: deps.google,
    publicUrl: deps.publicUrl,
    fetchMetadata,
  })
  const flows = createSsoFlows({ ...deps, oidc, settings })
  const samlFlows = createSamlFlows({
    saml: createSaml({
      database: deps.database,
      publicUrl: deps.publicUrl,
      callbackUrl: settings.redirectUri('microsoft_saml'),
    }),
    flows,
    settings,
    logger: deps.logger,
    publicUrl: deps.publicUrl,
    rereadMetadata: (orgId) => rereadMetadata(deps.database, orgId, fetchMetadata),
  })
  return { settings, flows, samlFlows }
}

export type SsoService = ReturnType<typeof createSsoService>
