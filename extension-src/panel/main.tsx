import { useActorRef } from '@xstate/react'
import { StrictMode, useEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { fromPromise } from 'xstate'
import type { SearchResult } from '../../contract/knowledge.ts'
import {
  type PortalFilledRequest,
  type PortalReadResponse,
  portalReadResponseSchema,
} from '../../contract/portal.ts'
import { kbSearchMachine } from '../../machines/kb-search/index.ts'
import {
  type DraftInput,
  type FillItem,
  type FillOutcome,
  type PageRead,
  portalPanelMachine,
} from '../../machines/portal-panel/index.ts'
import { api, connect, profile, search, settings } from '../quire.ts'
import { connectPanel, fillFields, readPage, targetTab } from './page.ts'
import { PortalView } from './portal-view.tsx'
import { SearchView } from './search-view.tsx'

/**
 * The extension's side panel (issue 42): React views that render two machines (the portal
 * panel's, and the knowledge-base search's) and send them events; the actors below are the
 * only code that touches Chrome or Quire.
 */

const portalMachine = portalPanelMachine.provide({
  actors: {
    checkSession: fromPromise<string | null, void>(async () => {
      const { access, server } = await settings()
      if (!access) return null
      return profile().then(
        () => server,
        () => null,
      )
    }),
    connect: fromPromise<void, void>(() => connect()),
    readPage: fromPromise<PageRead, void>(() => readPage()),
    draft: fromPromise<PortalReadResponse, DraftInput>(async ({ input }) => {
      const body = await api('/extension/portal/read/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          url: input.url,
          title: input.title,
          fields: input.fields,
          ...(input.questionnaireId !== null && { questionnaire_id: input.questionnaireId }),
        }),
      })
      // the server's answer is parsed as data, never run or rendered as markup
      return portalReadResponseSchema.parse(body)
    }),
    fill: fromPromise<FillOutcome[], { items: FillItem[] }>(({ input }) => fillFields(input.items)),
    record: fromPromise<void, { questionnaireId: number; outcomes: FillOutcome[] }>(
      async ({ input }) => {
        const body: PortalFilledRequest = {
          questionnaire_id: input.questionnaireId,
          fills: input.outcomes.map((outcome) => ({
            key: outcome.key,
            answer_id: outcome.answerId,
            overwrote: outcome.overwrote,
          })),
        }
        if (!body.fills.length) return
        await api('/extension/portal/filled/', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      },
    ),
  },
})

const searchMachine = kbSearchMachine.provide({
  actors: {
    search: fromPromise<SearchResult[], { q: string }>(
      async ({ input }) => (await search(input.q)) as unknown as SearchResult[],
    ),
  },
})

function Panel() {
  const portal = useActorRef(portalMachine)
  const searching = useActorRef(searchMachine)
  useEffect(() => {
    connectPanel()
    // a sign-in or sign-out in the popup or the hand-off tab
    const changed = () => portal.send({ type: 'session.changed' })
    chrome.storage.onChanged.addListener(changed)
    // the tab moved on (a wizard's next page): the panel says so; reading stays the person's call
    targetTab()
      .then((tab) =>
        chrome.tabs.onUpdated.addListener((tabId, change) => {
          if (tabId === tab.id && change.status === 'complete')
            portal.send({ type: 'page.changed' })
        }),
      )
      .catch(() => undefined)
  }, [portal])
  return (
    <main>
      <PortalView actor={portal} />
      <SearchView actor={searching} />
    </main>
  )
}

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <Panel />
    </StrictMode>,
  )
