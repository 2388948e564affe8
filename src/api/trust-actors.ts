import { fromPromise } from 'xstate'
import * as z from 'zod/mini'
import { paths } from '../../contract/paths.ts'
import {
  type PublicTrustPage,
  publicTrustPageSchema,
  type TrustAnalytics,
  type TrustAnswer,
  type TrustItems,
  type TrustReader,
  type TrustRequest,
  type TrustRequestCreate,
  type TrustSettings,
  type TrustSettingsUpdate,
  trustAnalyticsSchema,
  trustAnswerSchema,
  trustItemsSchema,
  trustReaderSchema,
  trustRequestListSchema,
  trustRequestSchema,
  trustSessionSchema,
  trustSettingsSchema,
} from '../../contract/trust.ts'
import { trustAnalyticsMachine } from '../../machines/trust-analytics/index.ts'
import { trustAskMachine } from '../../machines/trust-ask/index.ts'
import { trustCentreMachine } from '../../machines/trust-centre/index.ts'
import { trustContentMachine, type VisibilityChange } from '../../machines/trust-content/index.ts'
import { trustPageEditorMachine } from '../../machines/trust-page-editor/index.ts'
import { trustReaderMachine } from '../../machines/trust-reader/index.ts'
import { trustRequestMachine } from '../../machines/trust-request/index.ts'
import { type DecisionInput, trustRequestsMachine } from '../../machines/trust-requests/index.ts'
import { type ApiClient, api, publicApi } from './client.ts'

type Reader = NonNullable<TrustReader['reader']>

/* ------------------------------------------------------------------ Settings → Trust centre */

export const createTrustEditorLogic = (client: ApiClient = api) =>
  trustPageEditorMachine.provide({
    actors: {
      loadTrust: fromPromise<TrustSettings, void>(({ signal }) =>
        client.get(paths.trust.settings, trustSettingsSchema, { signal }),
      ),
      saveTrust: fromPromise<TrustSettings, TrustSettingsUpdate>(({ input }) =>
        client.post(paths.trust.settings, input, trustSettingsSchema),
      ),
    },
  })
export type TrustEditorLogic = ReturnType<typeof createTrustEditorLogic>

export const createTrustContentLogic = (client: ApiClient = api) =>
  trustContentMachine.provide({
    actors: {
      loadItems: fromPromise<TrustItems, void>(({ signal }) =>
        client.get(paths.trust.items, trustItemsSchema, { signal }),
      ),
      setVisibility: fromPromise<void, VisibilityChange>(async ({ input }) => {
        const path = input.kind === 'file' ? paths.trust.file(input.id) : paths.trust.qa(input.id)
        await client.requestVoid(path, { method: 'POST', body: { visibility: input.visibility } })
      }),
    },
  })
export type TrustContentLogic = ReturnType<typeof createTrustContentLogic>

export const createTrustRequestsLogic = (client: ApiClient = api) =>
  trustRequestsMachine.provide({
    actors: {
      loadRequests: fromPromise<TrustRequest[], void>(async ({ signal }) => {
        const list = await client.get(paths.trust.requests, trustRequestListSchema, { signal })
        return list.results
      }),
      decideRequest: fromPromise<TrustRequest, DecisionInput>(({ input }) =>
        client.post(
          paths.trust.request(input.id, input.action),
          input.days ? { days: input.days } : {},
          trustRequestSchema,
        ),
      ),
    },
  })
export type TrustRequestsLogic = ReturnType<typeof createTrustRequestsLogic>

export const createTrustAnalyticsLogic = (client: ApiClient = api) =>
  trustAnalyticsMachine.provide({
    actors: {
      loadAnalytics: fromPromise<TrustAnalytics, { days: number }>(({ input, signal }) =>
        client.get(`${paths.trust.analytics}?days=${input.days}`, trustAnalyticsSchema, {
          signal,
        }),
      ),
    },
  })
export type TrustAnalyticsLogic = ReturnType<typeof createTrustAnalyticsLogic>

/* ---------------------------------------------------------------- the page, as visitors see it */

export const createTrustCentreLogic = (client: ApiClient = publicApi) =>
  trustCentreMachine.provide({
    actors: {
      loadPage: fromPromise<PublicTrustPage, { slug: string }>(({ input, signal }) =>
        client.get(paths.publicTrust.page(input.slug), publicTrustPageSchema, { signal }),
      ),
    },
  })
export type TrustCentreLogic = ReturnType<typeof createTrustCentreLogic>

export const createTrustReaderLogic = (client: ApiClient = publicApi) =>
  trustReaderMachine.provide({
    actors: {
      loadReader: fromPromise<TrustReader, { slug: string }>(({ input, signal }) =>
        client.get(paths.publicTrust.reader(input.slug), trustReaderSchema, { signal }),
      ),
      // the answer also sets the reader's HttpOnly cookie, which the download links carry
      openSession: fromPromise<Reader, { slug: string; token: string }>(async ({ input }) => {
        const session = await client.post(
          paths.publicTrust.session(input.slug),
          { token: input.token },
          trustSessionSchema,
        )
        return { email: session.email, expires_at: session.expires_at }
      }),
    },
  })
export type TrustReaderLogic = ReturnType<typeof createTrustReaderLogic>

export const createTrustRequestLogic = (client: ApiClient = publicApi) =>
  trustRequestMachine.provide({
    actors: {
      sendRequest: fromPromise<
        { status: 'approved' | 'pending' },
        { slug: string; request: TrustRequestCreate }
      >(({ input }) =>
        client.post(
          paths.publicTrust.requests(input.slug),
          input.request,
          z.object({ status: z.enum(['approved', 'pending']) }),
        ),
      ),
    },
  })
export type TrustRequestLogic = ReturnType<typeof createTrustRequestLogic>

export const createTrustAskLogic = (client: ApiClient = publicApi) =>
  trustAskMachine.provide({
    actors: {
      askTrust: fromPromise<TrustAnswer, { slug: string; question: string }>(({ input }) =>
        client.post(
          paths.publicTrust.ask(input.slug),
          { question: input.question },
          trustAnswerSchema,
        ),
      ),
    },
  })
export type TrustAskLogic = ReturnType<typeof createTrustAskLogic>
