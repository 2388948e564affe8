import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fromPromise } from 'xstate'
import type {
  TrustAnalytics,
  TrustItems,
  TrustRequest,
  TrustSettings,
  TrustSettingsUpdate,
} from '../../contract/trust.ts'
import { trustAnalyticsMachine } from '../../machines/trust-analytics/index.ts'
import { trustContentMachine, type VisibilityChange } from '../../machines/trust-content/index.ts'
import {
  EMPTY_TRUST_SETTINGS,
  trustPageEditorMachine,
} from '../../machines/trust-page-editor/index.ts'
import { type DecisionInput, trustRequestsMachine } from '../../machines/trust-requests/index.ts'
import { ToasterContext } from '../../src/app/toaster.tsx'
import { TrustSection } from '../../src/pages/settings/trust/trust-section.tsx'
import { trustRequestOf } from '../fixtures/trust.ts'

const CANARY = 'canary-private-answer'
const items: TrustItems = {
  files: [
    { id: 1, name: 'SOC 2 report.pdf', size: 4096, visibility: 'nda' },
    { id: 2, name: 'Internal notes.pdf', size: 2048, visibility: 'private' },
  ],
  qa: [
    {
      id: 7,
      question: 'Do you encrypt data at rest?',
      answer: 'Yes, AES-256.',
      visibility: 'public',
    },
    { id: 8, question: 'Bug bounty?', answer: CANARY, visibility: 'private' },
  ],
}
const saved: TrustSettings = {
  ...EMPTY_TRUST_SETTINGS,
  slug: 'acme',
  sections: ['overview', 'practices', 'documents'],
  overview: 'We keep data safe.',
}
const request = trustRequestOf({
  id: 3,
  name: 'Vera Visitor',
  email: 'vera@prospect.example',
  company: 'Prospect Ltd',
  reason: 'Vendor review',
  nda_version: 2,
})
const analytics: TrustAnalytics = {
  days: 30,
  series: [{ day: '2026-11-28', views: 4, requests: 1, approvals: 0, downloads: 2 }],
  totals: { views: 4, requests: 1, approvals: 0, downloads: 2 },
  documents: [{ id: 1, name: 'SOC 2 report.pdf', downloads: 2, readers: 1 }],
  companies: [{ company: 'Prospect Ltd', requests: 1, approvals: 0, downloads: 2 }],
}

function renderSection(admin: boolean) {
  const sent: {
    saves: TrustSettingsUpdate[]
    decisions: DecisionInput[]
    changes: VisibilityChange[]
  } = { saves: [], decisions: [], changes: [] }
  const logic = {
    editor: trustPageEditorMachine.provide({
      actors: {
        loadTrust: fromPromise<TrustSettings, void>(async () => saved),
        saveTrust: fromPromise<TrustSettings, TrustSettingsUpdate>(async ({ input }) => {
          sent.saves.push(input)
          return { ...saved, ...(input as Partial<TrustSettings>) }
        }),
      },
    }),
    content: trustContentMachine.provide({
      actors: {
        loadItems: fromPromise<TrustItems, void>(async () => items),
        setVisibility: fromPromise<void, VisibilityChange>(async ({ input }) => {
          sent.changes.push(input)
        }),
      },
    }),
    requests: trustRequestsMachine.provide({
      actors: {
        loadRequests: fromPromise<TrustRequest[], void>(async () => [request]),
        decideRequest: fromPromise<TrustRequest, DecisionInput>(async ({ input }) => {
          sent.decisions.push(input)
          return { ...request, status: 'approved' }
        }),
      },
    }),
    analytics: trustAnalyticsMachine.provide({
      actors: {
        loadAnalytics: fromPromise<TrustAnalytics, { days: number }>(async () => analytics),
      },
    }),
  }
  render(
    <ToasterContext.Provider>
      <TrustSection logic={logic} admin={admin} organizationName="Acme" />
    </ToasterContext.Provider>,
  )
  return sent
}

describe('Settings → Trust centre', () => {
  it('previews the page from the form and what is public, never a private item', async () => {
    renderSection(true)
    fireEvent.click(await screen.findByRole('button', { name: 'Preview' }))
    const preview = await screen.findByRole('region', { name: 'Preview' })
    expect(within(preview).getByRole('heading', { name: 'Acme Trust Center' })).toBeTruthy()
    expect(within(preview).getByText('Yes, AES-256.')).toBeTruthy()
    expect(within(preview).getByText('SOC 2 report.pdf')).toBeTruthy()
    expect(preview.textContent).not.toContain(CANARY)
    expect(preview.textContent).not.toContain('Internal notes.pdf')
  })

  it('publishes with the address given, decides a request, and shows the figures', async () => {
    const sent = renderSection(true)
    fireEvent.click(await screen.findByRole('button', { name: 'Publish' }))
    await screen.findByText('Published')
    expect(sent.saves[0]).toMatchObject({ published: true, slug: 'acme' })
    fireEvent.click(await screen.findByRole('button', { name: 'Approve Vera Visitor' }))
    await vi.waitFor(() => expect(sent.decisions).toEqual([{ id: 3, action: 'approve' }]))
    expect(await screen.findByRole('img', { name: 'Page views per day' })).toBeTruthy()
    expect(screen.getAllByText('Prospect Ltd').length).toBeGreaterThan(0)
  })

  it('lets an approver choose what is public, and nothing else', async () => {
    const sent = renderSection(false)
    const group = await screen.findByRole('group', { name: 'Visibility of Internal notes.pdf' })
    fireEvent.click(within(group).getByRole('button', { name: 'Public' }))
    await vi.waitFor(() =>
      expect(sent.changes).toEqual([{ kind: 'file', id: 2, visibility: 'public' }]),
    )
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull()
    expect(screen.queryByText('Analytics')).toBeNull()
  })
})
