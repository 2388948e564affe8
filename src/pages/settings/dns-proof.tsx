import { Check, CircleCheck, Copy, X } from 'lucide-react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { fillText } from '../../../contract/knowledge.ts'
import { ORGANIZATION_TEXTS } from '../../../contract/organization.ts'
import {
  dnsProofView,
  type organizationSettingsMachine,
} from '../../../machines/organization-settings/index.ts'
import { useView } from '../../app/use-view.ts'
import { card, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import { DomainField } from './domain-list.tsx'

type Settings = ActorRefFrom<typeof organizationSettingsMachine>

const panel = css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '3' })
const panelHead = css({ display: 'flex', alignItems: 'flex-start', gap: '2' })
const lead = css({ flex: '1', minW: '0' })
const facts = css({
  display: 'grid',
  gridTemplateColumns: 'auto minmax(0, 1fr)',
  columnGap: '4',
  rowGap: '2',
  alignItems: 'baseline',
})
const term = css({ color: 'fg.muted', textStyle: 'xs', fontWeight: 'medium' })
const code = css({ fontFamily: 'mono', textStyle: 'sm', wordBreak: 'break-all' })
const valueLine = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' })
const valueBox = css({
  fontFamily: 'mono',
  textStyle: 'sm',
  wordBreak: 'break-all',
  px: '2',
  py: '1',
  borderRadius: 'l1',
  bg: 'gray.a3',
  userSelect: 'all',
  minW: '0',
})
const errorText = css({ textStyle: 'sm', color: 'fg.error' })
const okText = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  color: 'green.11',
  fontWeight: 'medium',
  '& svg': { w: '5', h: '5', flexShrink: 0 },
})
const quiet = css({ color: 'fg.muted' })
const hidden = css({ srOnly: true })
const note = css({ textStyle: 'xs', color: 'fg.muted' })

/**
 * Proof of a domain by DNS: a domain typed here (or picked in the list) gets the TXT record to
 * publish, then the record is checked; the server's reason shows when it is not found.
 */
export function DnsProof({ settings }: { settings: Settings }) {
  const view = useView(settings, dnsProofView)
  return (
    <div>
      <DomainField
        id="dns-domain"
        label="Verify a domain by DNS"
        help={ORGANIZATION_TEXTS.dnsWhy}
        value={view.field}
        disabled={view.checking || !view.field.trim()}
        onType={(value) => settings.send({ type: 'dns.type', value })}
        onSubmit={() => settings.send({ type: 'dns.show' })}
      >
        Verify by DNS
      </DomainField>
      {view.target && <RecordPanel settings={settings} target={view.target} />}
    </div>
  )
}

/** The TXT record of one domain, its Copy and Check buttons, and how the check went. */
function RecordPanel({ settings, target }: { settings: Settings; target: string }) {
  const view = useView(settings, dnsProofView)
  const { record } = view
  return (
    <section className={`${card} ${panel}`} aria-label={`DNS record for ${target}`}>
      <div className={panelHead}>
        {view.loadingRecord ? (
          <p className={`${lead} ${quiet}`}>Loading the DNS record of {target}...</p>
        ) : record && view.verified ? (
          <p className={`${lead} ${okText}`} role="status">
            <CircleCheck aria-hidden /> {ORGANIZATION_TEXTS.dnsVerified}
          </p>
        ) : record ? (
          <p className={lead}>
            {fillText(ORGANIZATION_TEXTS.dnsPublish, { domain: record.domain })}
          </p>
        ) : (
          <p className={`${lead} ${errorText}`} role="alert">
            {view.error}
          </p>
        )}
        <IconButton
          size="xs"
          variant="ghost"
          aria-label="Close the DNS record"
          disabled={view.checking}
          onClick={() => settings.send({ type: 'dns.close' })}
        >
          <X />
        </IconButton>
      </div>
      {record && !view.loadingRecord && (
        <>
          <dl className={facts}>
            <dt className={term}>Type</dt>
            <dd className={code}>{record.type}</dd>
            <dt className={term}>Name</dt>
            <dd className={code}>{record.name}</dd>
            <dt className={term}>Value</dt>
            <dd className={valueLine}>
              <span className={valueBox} data-testid="dns-record-value">
                {record.value}
              </span>
              <Button
                type="button"
                size="xs"
                variant="outline"
                onClick={() => settings.send({ type: 'dns.copy' })}
              >
                {view.copied ? (
                  <>
                    <Check /> {ORGANIZATION_TEXTS.copied}
                  </>
                ) : (
                  <>
                    <Copy /> Copy value
                  </>
                )}
              </Button>
              <span className={view.copyFailed ? note : hidden} role="status">
                {view.copied
                  ? ORGANIZATION_TEXTS.copied
                  : view.copyFailed
                    ? ORGANIZATION_TEXTS.copyFailed
                    : ''}
              </span>
            </dd>
          </dl>
          <div className={toolbar}>
            {view.verified ? (
              <Button
                type="button"
                size="sm"
                variant="outline"
                onClick={() => settings.send({ type: 'dns.close' })}
              >
                Done
              </Button>
            ) : (
              <Button
                type="button"
                size="sm"
                loading={view.checking}
                loadingText="Checking..."
                disabled={view.saving}
                onClick={() => settings.send({ type: 'dns.check' })}
              >
                Check DNS record
              </Button>
            )}
          </div>
        </>
      )}
      {record && view.error && (
        <p className={errorText} role="alert">
          {view.error}
        </p>
      )}
    </section>
  )
}
