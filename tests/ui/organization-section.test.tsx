import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { fromPromise } from 'xstate'
import {
  type DnsRecord,
  ORGANIZATION_TEXTS,
  type Organization,
} from '../../contract/organization.ts'
import { paths } from '../../contract/paths.ts'
import { ApiError, api } from '../../src/api/client.ts'
import { organizationActors } from '../../src/api/organization-actors.ts'
import { ToasterContext } from '../../src/app/toaster.tsx'
import { createLogoLogic } from '../../src/pages/settings/logo-field.tsx'
import {
  createOrganizationLogic,
  OrganizationSection,
} from '../../src/pages/settings/organization-section.tsx'

const org: Organization = {
  id: 1,
  name: 'Acme',
  verified_domains: ['acme.test', 'mail.test'],
  dns_verified_domains: ['acme.test'],
  answer_tone: 'neutral',
  answer_length: 'standard',
  logo_updated_at: null,
  review_cycle_days: 365,
  review_digest: true,
  export_approved_only: false,
}
const recordOf = (domain: string): DnsRecord => ({
  domain,
  type: 'TXT',
  name: domain,
  value: `quire-verification=token-of-${domain}`,
})
const notFound = (domain: string) =>
  ORGANIZATION_TEXTS.dnsNotFound
    .replace('{domain}', domain)
    .replace('{value}', recordOf(domain).value)

const invalid = 'Enter a domain such as example.com'

function renderSection() {
  const gets: string[] = []
  const checks: { path: string; body: unknown }[] = []
  let answerCheck: (outcome: Organization | ApiError) => void = () => {}
  const client = {
    ...api,
    get: vi.fn(async (path: string) => {
      gets.push(path)
      if (path === paths.account.organization) return org
      const domain = new URL(path, 'http://quire.test').searchParams.get('domain') ?? ''
      if (domain === 'no.domain') throw new ApiError(400, { error: invalid }, invalid)
      return recordOf(domain)
    }),
    post: vi.fn((path: string, body: unknown) => {
      checks.push({ path, body })
      return new Promise((resolve, reject) => {
        answerCheck = (outcome) =>
          outcome instanceof ApiError ? reject(outcome) : resolve(outcome)
      })
    }),
  } as unknown as typeof api
  const logoLogic = createLogoLogic({
    loadLogo: fromPromise<string | null, void>(async () => null),
    uploadLogo: fromPromise<void, { file: File }>(async () => {}),
    removeLogo: fromPromise<void, void>(async () => {}),
  })
  render(
    <ToasterContext.Provider>
      <OrganizationSection
        logic={createOrganizationLogic(organizationActors(client))}
        logoLogic={logoLogic}
      />
    </ToasterContext.Provider>,
  )
  return { gets, checks, answer: (outcome: Organization | ApiError) => answerCheck(outcome) }
}

describe('Settings → Organisation: the review cycle', () => {
  it('shows the organisation’s cycle, refuses an empty one in plain words and saves a new one', async () => {
    const { checks, answer } = renderSection()
    const field = (await screen.findByLabelText('Review cycle (days)')) as HTMLInputElement
    expect(field.value).toBe('365')
    await userEvent.clear(field)
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Enter the review cycle as a number of days',
    )
    expect(checks).toEqual([])
    await userEvent.type(field, '180')
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(checks).toEqual([
      {
        path: paths.account.updateOrganization,
        body: expect.objectContaining({ review_cycle_days: 180 }),
      },
    ])
    answer({ ...org, review_cycle_days: 180 })
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true),
    )
    expect(field.value).toBe('180')
  })
})

describe('Settings → Organisation: domains proved by DNS', () => {
  it('badges each domain, shows the record of a typed domain, the server’s reason, then the proof', async () => {
    const { gets, checks, answer } = renderSection()
    const list = await screen.findByRole('list', { name: 'Verified domains' })
    const rows = within(list).getAllByRole('listitem')
    expect(rows.map((row) => row.textContent)).toEqual([
      `acme.test${ORGANIZATION_TEXTS.dnsBadge}`,
      `mail.test${ORGANIZATION_TEXTS.mailboxBadge} Verify by DNS`,
    ])
    expect(screen.getByText(ORGANIZATION_TEXTS.dnsWhy)).toBeTruthy()
    // only the mailbox domain offers the proof
    expect(screen.queryByRole('button', { name: 'Verify by DNS: acme.test' })).toBeNull()

    await userEvent.type(screen.getByLabelText('Verify a domain by DNS'), ' Claimed.TEST {Enter}')
    const panel = await screen.findByRole('region', { name: 'DNS record for claimed.test' })
    expect(gets).toContain(`${paths.account.domainDnsRecord}?domain=claimed.test`)
    expect(
      within(panel)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['TXT', 'claimed.test', `${recordOf('claimed.test').value} Copy value`])
    // jsdom has no clipboard: the copy says so
    await userEvent.click(within(panel).getByRole('button', { name: 'Copy value' }))
    expect(await within(panel).findByText(ORGANIZATION_TEXTS.copyFailed)).toBeTruthy()

    await userEvent.click(within(panel).getByRole('button', { name: 'Check DNS record' }))
    expect(within(panel).getByRole('button', { name: /Checking\.\.\./ })).toHaveProperty(
      'disabled',
      true,
    )
    expect(screen.getByRole('button', { name: 'Close the DNS record' })).toHaveProperty(
      'disabled',
      true,
    )
    answer(new ApiError(400, { error: notFound('claimed.test') }, notFound('claimed.test')))
    expect((await within(panel).findByRole('alert')).textContent).toBe(notFound('claimed.test'))

    await userEvent.click(within(panel).getByRole('button', { name: 'Check DNS record' }))
    answer({
      ...org,
      verified_domains: ['acme.test', 'claimed.test', 'mail.test'],
      dns_verified_domains: ['acme.test', 'claimed.test'],
    })
    expect(await within(panel).findByText(ORGANIZATION_TEXTS.dnsVerified)).toBeTruthy()
    expect(within(panel).queryByRole('alert')).toBeNull()
    expect(checks).toEqual([
      { path: paths.account.domainVerifyDns, body: { domain: 'claimed.test' } },
      { path: paths.account.domainVerifyDns, body: { domain: 'claimed.test' } },
    ])
    const claimed = within(list)
      .getAllByRole('listitem')
      .find((row) => row.textContent?.startsWith('claimed.test'))
    expect(claimed?.textContent).toBe(`claimed.test${ORGANIZATION_TEXTS.dnsBadge}`)
    expect(screen.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true)

    await userEvent.click(within(panel).getByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('region', { name: 'DNS record for claimed.test' })).toBeNull()
  })

  it('asks for a listed domain’s record from its row and says when it cannot be prepared', async () => {
    renderSection()
    const verify = await screen.findByRole('button', { name: 'Verify by DNS: mail.test' })
    await userEvent.click(verify)
    const panel = await screen.findByRole('region', { name: 'DNS record for mail.test' })
    expect(within(panel).getByTestId('dns-record-value').textContent).toBe(
      recordOf('mail.test').value,
    )
    const field = screen.getByLabelText('Verify a domain by DNS') as HTMLInputElement
    expect(field.value).toBe('mail.test')

    await userEvent.clear(field)
    await userEvent.type(field, 'no.domain')
    await userEvent.click(screen.getByRole('button', { name: 'Verify by DNS' }))
    const failed = await screen.findByRole('region', { name: 'DNS record for no.domain' })
    expect((await within(failed).findByRole('alert')).textContent).toBe(invalid)
    expect(within(failed).queryByRole('button', { name: 'Check DNS record' })).toBeNull()
    await userEvent.click(within(failed).getByRole('button', { name: 'Close the DNS record' }))
    expect(screen.queryByRole('region', { name: /^DNS record for/ })).toBeNull()
  })
})
