import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { inflateRawSync } from 'node:zlib'
import { signSamlPost } from '@node-saml/node-saml/lib/saml-post-signing.js'

/**
 * A SAML identity provider for the tests: its metadata, and responses to Quire's requests signed
 * with node-saml's own signing (a real XML signature over the assertion), or left unsigned,
 * signed by another key, or wrapped (XSW) to check that Quire refuses them (AS11).
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/saml/${name}`, import.meta.url), 'utf8')
export const IDP_KEY = fixture('idp-key.pem')
export const IDP_CERT = fixture('idp-cert.pem')
export const ATTACKER_KEY = fixture('attacker-key.pem')
export const ATTACKER_CERT = fixture('attacker-cert.pem')

const bare = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')

export const IDP_ENTITY_ID = 'https://sts.windows.test/quire-tenant/'
export const IDP_SSO_URL = 'https://login.microsoftonline.test/quire-tenant/saml2'

export function idpMetadata(cert = IDP_CERT, entityId = IDP_ENTITY_ID) {
  return `<?xml version="1.0"?>
<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <KeyDescriptor use="signing">
      <KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#">
        <X509Data><X509Certificate>${bare(cert)}</X509Certificate></X509Data>
      </KeyInfo>
    </KeyDescriptor>
    <SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${IDP_SSO_URL}"/>
  </IDPSSODescriptor>
</EntityDescriptor>`
}

/** The ID of the AuthnRequest in an HTTP-Redirect sign-in address, and its RelayState. */
export function readRequest(address: string) {
  const url = new URL(address)
  const xml = inflateRawSync(
    Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64'),
  ).toString()
  return {
    id: /\bID="([^"]+)"/.exec(xml)?.[1] ?? '',
    relayState: url.searchParams.get('RelayState') ?? '',
    acs: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1] ?? '',
    issuer: /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '',
  }
}

export interface ResponseOptions {
  inResponseTo: string
  destination: string
  audience: string
  nameId: string
  email?: string
  /** Minutes from now the assertion stays valid (negative: already expired). */
  validMinutes?: number
  signWith?: 'idp' | 'attacker' | 'none'
  /** The Issuer of the response and its assertion (the configured IdP's unless given). */
  issuer?: string
}

function assertion(options: ResponseOptions, id: string) {
  const now = new Date()
  const until = new Date(now.getTime() + (options.validMinutes ?? 5) * 60_000)
  const before = new Date(now.getTime() - 60_000)
  const email = options.email ?? options.nameId
  return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}"><saml:Issuer>${options.issuer ?? IDP_ENTITY_ID}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.nameId}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${options.inResponseTo}" NotOnOrAfter="${until.toISOString()}" Recipient="${options.destination}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${before.toISOString()}" NotOnOrAfter="${until.toISOString()}"><saml:AudienceRestriction><saml:Audience>${options.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_session"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`
}

function envelope(options: ResponseOptions, inner: string) {
  return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${options.destination}" InResponseTo="${options.inResponseTo}"><saml:Issuer>${options.issuer ?? IDP_ENTITY_ID}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${inner}</samlp:Response>`
}

const ASSERTION_XPATH = '/*[local-name()="Response"]/*[local-name()="Assertion"]'

/** A signed (or not) response, base64 as it is posted. */
export function samlResponse(options: ResponseOptions): string {
  const xml = envelope(options, assertion(options, `_${randomUUID()}`))
  const signWith = options.signWith ?? 'idp'
  const signed =
    signWith === 'none'
      ? xml
      : signSamlPost(xml, ASSERTION_XPATH, {
          privateKey: signWith === 'idp' ? IDP_KEY : ATTACKER_KEY,
          publicCert: signWith === 'idp' ? IDP_CERT : ATTACKER_CERT,
          signatureAlgorithm: 'sha256',
          digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
        })
  return Buffer.from(signed).toString('base64')
}

/**
 * Signature-wrapping attacks on a response the IdP signed for `signedFor`: an unsigned assertion
 * for `evil` is added before the signed one, or the signed one is hidden inside the evil one.
 */
export function wrappedResponses(options: ResponseOptions, evil: string): string[] {
  const signedXml = Buffer.from(samlResponse(options), 'base64').toString()
  const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedXml)?.[0] ?? ''
  const evilAssertion = assertion({ ...options, nameId: evil, email: evil }, `_${randomUUID()}`)
  const evilFirst = envelope(options, `${evilAssertion}${signedAssertion}`)
  const evilAround = envelope(
    options,
    evilAssertion.replace('</saml:Assertion>', `${signedAssertion}</saml:Assertion>`),
  )
  const evilWithSignedId = envelope(
    options,
    evilAssertion.replace(/ID="[^"]+"/, `ID="${/ID="([^"]+)"/.exec(signedAssertion)?.[1] ?? ''}"`) +
      `<samlp:Extensions>${signedAssertion}</samlp:Extensions>`,
  )
  return [evilFirst, evilAround, evilWithSignedId].map((xml) => Buffer.from(xml).toString('base64'))
}
