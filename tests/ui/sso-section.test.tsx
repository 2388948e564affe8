import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import type { SsoSettings, SsoSettingsUpdate } from '../../contract/sso.ts'
import { ToasterContext } from '../../src/app/toaster.tsx'
import { createSsoLogic, SsoSection } from '../../src/pages/settings/sso-section.tsx'
import { ssoSettingsOf } from '../fixtures/sso.ts'
import { optionTexts } from '../support/choose-option.ts'

const settings = (provider: SsoSettings['provider']) =>
  ssoSettingsOf({
    provider,
    issuer: 'https://login.example.test/v2.0',
    redirect_uri: null,
    entity_id: 'https://quire.test/saml',
  })

function renderSection(saved: SsoSettings) {
  const logic = createSsoLogic({
    loadSso: fromPromise<SsoSettings, void>(async () => saved),
    saveSso: fromPromise<SsoSettings, SsoSettingsUpdate>(async () => saved),
    testSso: fromPromise<{ ok: boolean; message: string }, SsoSettingsUpdate>(async () => ({
      ok: true,
      message: 'ok',
    })),
  })
  render(
    <ToasterContext.Provider>
      <SsoSection logic={logic} />
    </ToasterContext.Provider>,
  )
}

/** The identity providers the select offers, in order. */
const providers = () => optionTexts('Identity provider')

describe('SsoSection', () => {
  it('offers each protocol once: OpenID Connect, Google Workspace, SAML', async () => {
    renderSection(settings('microsoft_oidc'))
    expect(await providers()).toEqual([
      'OpenID Connect (Microsoft Entra ID, Okta or any provider)',
      'Google Workspace',
      'SAML (Microsoft Entra ID)',
    ])
  })

  it('keeps a saved legacy Microsoft entry readable, offered only to whoever saved it', async () => {
    renderSection(settings('microsoft'))
    expect((await screen.findByRole('combobox', { name: 'Identity provider' })).textContent).toBe(
      'Microsoft (OpenID Connect)',
    )
    expect(await providers()).toContain('Microsoft (OpenID Connect)')
  })
})
