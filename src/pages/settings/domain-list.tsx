import { Plus, ShieldCheck, X } from 'lucide-react'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { ORGANIZATION_TEXTS } from '../../../contract/organization.ts'
import {
  type DomainProof,
  type organizationSettingsMachine,
  organizationSettingsView,
  selectDomainProofs,
} from '../../../machines/organization-settings/index.ts'
import { useView } from '../../app/use-view.ts'
import { fieldLabel, pill, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import { Input } from '../../components/ui/input.tsx'

const help = css({ textStyle: 'xs', color: 'fg.muted', mt: '1' })
const rows = css({ display: 'flex', flexDirection: 'column', gap: '2', mt: '3' })
const row = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '2',
  pl: '3',
  pr: '1',
  py: '1',
  minH: '10',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  textStyle: 'sm',
})
const name = css({ minW: '0', fontWeight: 'medium', overflowWrap: 'anywhere' })
const actions = css({ display: 'flex', alignItems: 'center', gap: '1', ml: 'auto' })

const BADGES: Record<DomainProof, { text: string; className: string }> = {
  dns: { text: ORGANIZATION_TEXTS.dnsBadge, className: css({ bg: 'green.a3', color: 'green.11' }) },
  mailbox: {
    text: ORGANIZATION_TEXTS.mailboxBadge,
    className: css({ bg: 'amber.a3', color: 'amber.11' }),
  },
  unsaved: {
    text: ORGANIZATION_TEXTS.unsavedBadge,
    className: css({ bg: 'gray.a3', color: 'fg.muted' }),
  },
}

/** A domain's field and its button (Enter presses it), with a line of help under them. */
export function DomainField(props: {
  id: string
  label: string
  help: string
  value: string
  onType: (value: string) => void
  onSubmit: () => void
  disabled?: boolean
  children: ReactNode
}) {
  return (
    <>
      <label className={fieldLabel} htmlFor={props.id}>
        {props.label}
      </label>
      <div className={toolbar}>
        <Input
          id={props.id}
          className={css({ flex: '1', minW: '12rem' })}
          placeholder="example.com"
          value={props.value}
          onChange={(event) => props.onType(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return
            event.preventDefault()
            if (!props.disabled) props.onSubmit()
          }}
        />
        <Button type="button" variant="outline" disabled={props.disabled} onClick={props.onSubmit}>
          {props.children}
        </Button>
      </div>
      <p className={help}>{props.help}</p>
    </>
  )
}

const domainsView = {
  domain: organizationSettingsView.domain,
  domains: selectDomainProofs,
  checking: organizationSettingsView.checking,
}

/**
 * The organisation's verified email domains: the field that adds one, then each domain with how
 * it is verified (by DNS, or only by an admin's mailbox) and its actions.
 */
export function DomainList({
  settings,
}: {
  settings: ActorRefFrom<typeof organizationSettingsMachine>
}) {
  const view = useView(settings, domainsView)
  return (
    <div>
      <DomainField
        id="new-domain"
        label="Verified email domains"
        help="Only a domain of an admin’s confirmed address, and never a public email provider."
        value={view.domain}
        onType={(value) => settings.send({ type: 'domain.type', value })}
        onSubmit={() => settings.send({ type: 'domain.add' })}
      >
        <Plus /> Add domain
      </DomainField>
      {view.domains.length > 0 && (
        <ul className={rows} aria-label="Verified domains">
          {view.domains.map(({ domain, proof }) => (
            <li key={domain} className={row}>
              <span className={name}>{domain}</span>
              <span className={`${pill} ${BADGES[proof].className}`}>{BADGES[proof].text}</span>
              <span className={actions}>
                {proof !== 'dns' && (
                  <Button
                    type="button"
                    size="xs"
                    variant="ghost"
                    aria-label={`Verify by DNS: ${domain}`}
                    disabled={view.checking}
                    onClick={() => settings.send({ type: 'dns.show', domain })}
                  >
                    <ShieldCheck /> Verify by DNS
                  </Button>
                )}
                <IconButton
                  size="xs"
                  variant="ghost"
                  aria-label={`Remove ${domain}`}
                  onClick={() => settings.send({ type: 'domain.remove', domain })}
                >
                  <X />
                </IconButton>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
