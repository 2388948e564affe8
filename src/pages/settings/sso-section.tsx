import { useActorRef } from '@xstate/react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import { textarea } from 'styled-system/recipes'
import type { SsoProvider } from '../../../contract/paths.ts'
import { SSO_TEXTS } from '../../../contract/sso.ts'
import { ssoSettingsMachine, ssoSettingsView } from '../../../machines/sso-settings/index.ts'
import { ssoActors } from '../../api/organization-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { fieldLabel, grid2 } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { SettingsForm } from './settings-form.tsx'

export const createSsoLogic = (actors = ssoActors()) => ssoSettingsMachine.provide({ actors })
export type SsoLogic = ReturnType<typeof createSsoLogic>
const defaultLogic = createSsoLogic()

// One entry per protocol: OpenID Connect (Entra ID and any other provider), Google, SAML.
const PROVIDERS = [
  { value: 'microsoft_oidc', label: 'OpenID Connect (Microsoft Entra ID, Okta or any provider)' },
  { value: 'google', label: 'Google Workspace' },
  { value: 'microsoft_saml', label: 'SAML (Microsoft Entra ID)' },
] satisfies { value: SsoProvider; label: string }[]
// The earlier Microsoft-only OpenID Connect entry: offered only to an organisation that saved it.
const LEGACY_MICROSOFT = { value: 'microsoft', label: 'Microsoft (OpenID Connect)' }
const WITH_LEGACY = [...PROVIDERS, LEGACY_MICROSOFT]

const help = css({ textStyle: 'xs', color: 'fg.muted', mt: '1' })
const check = flex({ gap: '2', align: 'flex-start', textStyle: 'sm' })
const box = css({ mt: '0.5', w: '4', h: '4', accentColor: 'colorPalette.default', flexShrink: 0 })
const errorText = css({ textStyle: 'sm', color: 'fg.error' })
const okText = css({ textStyle: 'sm', color: 'green.11' })
const code = css({ fontFamily: 'mono', textStyle: 'xs', wordBreak: 'break-all' })

/** Settings → Single sign-on (admins): renders the SSO settings machine and sends its events. */
export function SsoSection({
  logic = defaultLogic,
  onSaved,
}: {
  logic?: SsoLogic
  onSaved?: () => void
}) {
  const sso = useActorRef(logic)
  const view = useView(sso, ssoSettingsView)
  const toaster = ToasterContext.useActorRef()
  useEmitted(
    () => [
      sso.on('saved', () => {
        toaster.send({
          type: 'toast.show',
          toast: { type: 'success', title: SSO_TEXTS.settingsSaved },
        })
        onSaved?.()
      }),
    ],
    [sso, toaster, onSaved],
  )
  const edit = (change: Partial<typeof view.form>) => sso.send({ type: 'edit', change })
  const oidc = view.form.provider !== 'microsoft_saml'
  const ownClient = oidc && view.form.provider !== 'google'
  const legacy = view.saved?.provider === 'microsoft' || view.form.provider === 'microsoft'
  return (
    <SettingsForm
      id="sso"
      title="Single sign-on"
      failure={view.failed ? (view.error ?? 'The settings could not be read.') : null}
      loading={view.loading}
      error={view.error}
      status={
        view.tested && (
          <p className={view.tested.ok ? okText : errorText} role="status">
            {view.tested.message}
          </p>
        )
      }
      onRetry={() => sso.send({ type: 'retry' })}
      onSubmit={() => sso.send({ type: 'save' })}
      actions={
        <>
          <Button type="submit" loading={view.busy && !view.testing}>
            Save changes
          </Button>
          {oidc && (
            <Button
              type="button"
              variant="outline"
              loading={view.testing}
              disabled={view.busy}
              onClick={() => sso.send({ type: 'test' })}
            >
              Test connection
            </Button>
          )}
          <Button
            type="button"
            variant="ghost"
            disabled={view.busy}
            onClick={() => sso.send({ type: 'reset' })}
          >
            Discard
          </Button>
        </>
      }
    >
      <label className={check}>
        <input
          type="checkbox"
          className={box}
          checked={view.form.enabled}
          onChange={(event) => edit({ enabled: event.target.checked })}
        />
        <span>People of the domains below sign in through your identity provider</span>
      </label>
      <SimpleSelect
        label="Identity provider"
        size="md"
        options={legacy ? WITH_LEGACY : PROVIDERS}
        value={view.form.provider}
        onChange={(value) => edit({ provider: value as SsoProvider })}
      />
      {ownClient && (
        <>
          <Field.Root>
            <Field.Label>Issuer</Field.Label>
            <Field.Input
              value={view.form.issuer}
              placeholder="https://login.microsoftonline.com/<tenant id>/v2.0"
              onChange={(event) => edit({ issuer: event.target.value })}
            />
            <Field.HelperText>
              Its discovery document is read at /.well-known/openid-configuration.
            </Field.HelperText>
          </Field.Root>
          <div className={grid2}>
            <Field.Root>
              <Field.Label>Client ID</Field.Label>
              <Field.Input
                value={view.form.client_id}
                onChange={(event) => edit({ client_id: event.target.value })}
              />
            </Field.Root>
            <Field.Root>
              <Field.Label>Client secret</Field.Label>
              <Field.Input
                type="password"
                autoComplete="off"
                value={view.form.client_secret}
                placeholder={view.saved?.has_client_secret ? 'Stored: type to replace' : ''}
                onChange={(event) => edit({ client_secret: event.target.value })}
              />
            </Field.Root>
          </div>
        </>
      )}
      {!oidc && (
        <>
          <Field.Root>
            <Field.Label>Metadata address</Field.Label>
            <Field.Input
              value={view.form.metadata_url}
              onChange={(event) => edit({ metadata_url: event.target.value })}
            />
          </Field.Root>
          <div>
            <label className={fieldLabel} htmlFor="sso-metadata">
              Or the metadata XML
            </label>
            <textarea
              id="sso-metadata"
              className={textarea({ size: 'sm' })}
              rows={4}
              value={view.form.metadata_xml}
              onChange={(event) => edit({ metadata_xml: event.target.value })}
            />
          </div>
        </>
      )}
      <Field.Root>
        <Field.Label>Email domains</Field.Label>
        <Field.Input
          value={view.form.domains.join(', ')}
          placeholder="example.com"
          onChange={(event) =>
            edit({
              domains: event.target.value
                .split(/[\s,]+/)
                .map((domain) => domain.trim().toLowerCase())
                .filter(Boolean),
            })
          }
        />
        <Field.HelperText>
          Verified domains of the organisation, separated by commas.
        </Field.HelperText>
      </Field.Root>
      <label className={check}>
        <input
          type="checkbox"
          className={box}
          checked={view.form.enforce_sso}
          onChange={(event) => edit({ enforce_sso: event.target.checked })}
        />
        <span>Require single sign-on: no password sign-in, reset or sign-in links</span>
      </label>
      <label className={check}>
        <input
          type="checkbox"
          className={box}
          checked={view.form.jit_provisioning}
          onChange={(event) => edit({ jit_provisioning: event.target.checked })}
        />
        <span>Create people of these domains at their first sign-in (as contributors)</span>
      </label>
      {!oidc && view.saved && (
        <p className={help}>
          Quire's entity id (audience): <span className={code}>{view.saved.entity_id}</span>
        </p>
      )}
      {view.saved?.redirect_uri && (
        <p className={help}>
          Redirect address to register at your provider:{' '}
          <span className={code}>{view.saved.redirect_uri}</span>
        </p>
      )}
    </SettingsForm>
  )
}
