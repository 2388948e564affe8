import { type CacheProvider, type Profile, SAML, ValidateInResponseTo } from '@node-saml/node-saml'
import { DOMParser } from '@xmldom/xmldom'
import type { Database } from '../../db/index.ts'
import type { OidcIdentity } from './oidc.ts'

/**
 * SAML 2.0 sign-in (microsoft_saml) through node-saml, with the identity provider's metadata:
 * SP-initiated, HTTP-Redirect request, HTTP-POST response to the callback. Only signed assertions
 * are accepted (AS11), with the audience of Quire's entity id, the request's InResponseTo (kept
 * in PostgreSQL, used once: a replayed response finds nothing), the conditions' time window and
 * the response's Destination.
 */

const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:metadata'
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#'
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol'
const REQUEST_TTL_MS = 10 * 60_000

export interface IdpMetadata {
  entityId: string
  ssoUrl: string
  certificates: string[]
}

/** The IdP's entity id, sign-in address (HTTP-Redirect) and signing certificates. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  const doc = new DOMParser({
    errorHandler: { error: () => {}, fatalError: () => {} },
  }).parseFromString(xml, 'text/xml')
  const entity = doc.getElementsByTagNameNS(SAML_NS, 'EntityDescriptor')[0]
  const idp = doc.getElementsByTagNameNS(SAML_NS, 'IDPSSODescriptor')[0]
  if (!entity || !idp) throw new Error('The metadata has no identity provider (IDPSSODescriptor)')
  const services = Array.from(idp.getElementsByTagNameNS(SAML_NS, 'SingleSignOnService'))
  const redirect =
    services.find((service) => service.getAttribute('Binding')?.endsWith('HTTP-Redirect')) ??
    services[0]
  const ssoUrl = redirect?.getAttribute('Location') ?? ''
  if (!/^https?:\/\//.test(ssoUrl)) throw new Error('The metadata has no sign-in address')
  const certificates = Array.from(idp.getElementsByTagNameNS(SAML_NS, 'KeyDescriptor'))
    .filter((key) => (key.getAttribute('use') ?? 'signing') === 'signing')
    .flatMap((key) => Array.from(key.getElementsByTagNameNS(DSIG_NS, 'X509Certificate')))
    .map((node) => (node.textContent ?? '').replace(/\s+/g, ''))
    .filter(Boolean)
  if (!certificates.length) throw new Error('The metadata has no signing certificate')
  const entityId = entity.getAttribute('entityID')?.trim() ?? ''
  if (!entityId) throw new Error('The metadata has no entity id (entityID)')
  return { entityId, ssoUrl, certificates }
}

/** The signature of a response did not verify with the certificates Quire holds. */
export const isSignatureFailure = (error: unknown) =>
  error instanceof Error && /signature/i.test(error.message)

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion'

/** The Issuer of the response itself (optional in SAML), read before node-saml validates. */
function responseIssuer(doc: Document): string | null {
  const response = doc.getElementsByTagNameNS(PROTOCOL_NS, 'Response')[0]
  if (!response) return null
  for (const child of Array.from(response.childNodes)) {
    const element = child as Element
    if (element.namespaceURI === ASSERTION_NS && element.localName === 'Issuer')
      return (element.textContent ?? '').trim()
  }
  return null
}

/** The Destination and Issuer of a posted response, read before node-saml validates the rest. */
export function responseEnvelope(samlResponse: string) {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8')
  const doc = new DOMParser({
    errorHandler: { error: () => {}, fatalError: () => {} },
  }).parseFromString(xml, 'text/xml')
  const response = doc.getElementsByTagNameNS(PROTOCOL_NS, 'Response')[0]
  return {
    destination: response?.getAttribute('Destination') ?? null,
    issuer: responseIssuer(doc as unknown as Document),
  }
}

/**
 * node-saml's request ids, in PostgreSQL so that every API node knows them; taken once. Removal
 * waits for `settle`, so that a response whose signature failed can be tried once more against
 * metadata read again (a rotated certificate) with its request still open.
 */
function requestCache(database: Database, orgId: number) {
  const taken = new Set<string>()
  const cache = store(database, orgId)
  const deferred: CacheProvider = {
    saveAsync: cache.saveAsync,
    getAsync: cache.getAsync,
    async removeAsync(id) {
      if (id) taken.add(id)
      return id ? cache.getAsync(id) : null
    },
  }
  return {
    cache: deferred,
    async settle() {
      for (const id of taken) await cache.removeAsync(id)
    },
  }
}

function store(database: Database, orgId: number): CacheProvider {
  const { pool } = database
  const key = (id: string) => `saml:${orgId}:${id}`
  return {
    async saveAsync(id, value) {
      await pool.query(
        `insert into sso_flows (state_hash, org_id, provider, code_verifier, nonce, expires_at)
         values ($1, $2, 'microsoft_saml', $3, '', now() + $4::interval)
         on conflict (state_hash) do nothing`,
        [key(id), orgId, value, `${REQUEST_TTL_MS / 1000} seconds`],
      )
      return { value, createdAt: Date.now() }
    },
    async getAsync(id) {
      const { rows } = await pool.query<{ code_verifier: string }>(
        `select code_verifier from sso_flows
          where state_hash = $1 and used_at is null and expires_at > now()`,
        [key(id)],
      )
      return rows[0]?.code_verifier ?? null
    },
    async removeAsync(id) {
      if (!id) return null
      const { rows } = await pool.query<{ code_verifier: string }>(
        `update sso_flows set used_at = now() where state_hash = $1 and used_at is null
         returning code_verifier`,
        [key(id)],
      )
      return rows[0]?.code_verifier ?? null
    },
  }
}

export function createSaml(deps: { database: Database; publicUrl: string; callbackUrl: string }) {
  /** Quire's entity id at every identity provider (the audience of their assertions). */
  const entityId = `${deps.publicUrl}/api/v1/admin/sso/saml/`

  function clientOf(orgId: number, metadata: IdpMetadata, cache?: CacheProvider) {
    return new SAML({
      entryPoint: metadata.ssoUrl,
      idpIssuer: metadata.entityId || undefined,
      idpCert: metadata.certificates,
      issuer: entityId,
      callbackUrl: deps.callbackUrl,
      audience: entityId,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      cacheProvider: cache ?? store(deps.database, orgId),
      acceptedClockSkewMs: 5_000,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      disableRequestedAuthnContext: true,
    })
  }

  /** The provider's sign-in address for this organisation, carrying `relayState`. */
  async function start(orgId: number, metadata: IdpMetadata, relayState: string) {
    return clientOf(orgId, metadata).getAuthorizeUrlAsync(relayState, undefined, {})
  }

  /**
   * A posted response, validated; the account it vouches for. The response and its assertion
   * must name the configured identity provider as their Issuer (node-saml checks it only on
   * logout): an identity is its provider's. When the signature fails and `reread` gives other
   * metadata (the provider rotated its certificate), the response is tried once more with it.
   */
  async function complete(
    orgId: number,
    metadata: IdpMetadata,
    samlResponse: string,
    reread?: () => Promise<IdpMetadata | undefined>,
  ): Promise<OidcIdentity> {
    const envelope = responseEnvelope(samlResponse)
    if (envelope.destination !== deps.callbackUrl)
      throw new Error('The response is not addressed to this callback (Destination)')
    const requests = requestCache(deps.database, orgId)
    let current = metadata
    let profile: Profile | null | undefined
    try {
      try {
        ;({ profile } = await clientOf(orgId, current, requests.cache).validatePostResponseAsync({
          SAMLResponse: samlResponse,
        }))
      } catch (error) {
        const fresh = isSignatureFailure(error) && reread ? await reread() : undefined
        if (!fresh) throw error
        current = fresh
        ;({ profile } = await clientOf(orgId, current, requests.cache).validatePostResponseAsync({
          SAMLResponse: samlResponse,
        }))
      }
    } finally {
      await requests.settle()
    }
    if (envelope.issuer !== null && envelope.issuer !== current.entityId)
      throw new Error('The response was issued by another identity provider (Issuer)')
    if (!profile) throw new Error('The response carries no assertion')
    if (profile.issuer !== current.entityId)
      throw new Error('The assertion was issued by another identity provider (Issuer)')
    const attribute = (name: string) => {
      const value = (profile as Record<string, unknown>)[name]
      return typeof value === 'string' ? value : null
    }
    const email =
      attribute('email') ??
      attribute('mail') ??
      attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress') ??
      (profile.nameID.includes('@') ? profile.nameID : null)
    return {
      issuer: profile.issuer,
      subject: profile.nameID,
      email: email?.toLowerCase() ?? null,
      // the organisation's own IdP asserts its people's addresses (its domains only: flows.ts)
      emailVerified: Boolean(email),
      firstName: attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname') ?? '',
      lastName: attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname') ?? '',
      hd: null,
      tid: null,
    }
  }

  return { entityId, start, complete }
}

export type Saml = ReturnType<typeof createSaml>
