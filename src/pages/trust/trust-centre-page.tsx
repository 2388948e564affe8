import { useNavigate, useParams, useSearch } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { API_PREFIX, paths } from '../../../contract/paths.ts'
import { type PublicTrustPage, TRUST_TEXTS } from '../../../contract/trust.ts'
import { type trustCentreMachine, trustCentreView } from '../../../machines/trust-centre/index.ts'
import { type trustReaderMachine, trustReaderView } from '../../../machines/trust-reader/index.ts'
import {
  createTrustAskLogic,
  createTrustCentreLogic,
  createTrustReaderLogic,
  createTrustRequestLogic,
} from '../../api/trust-actors.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { callout } from '../../components/form-styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { formatDay } from '../../lib/format.ts'
import { AskBox } from './ask-box.tsx'
import { RequestAccess } from './request-access.tsx'
import { TrustPageView } from './trust-page-view.tsx'

const logic = {
  centre: createTrustCentreLogic(),
  reader: createTrustReaderLogic(),
  request: createTrustRequestLogic(),
  ask: createTrustAskLogic(),
}
export type TrustCentreLogics = typeof logic

const shell = css({ minH: '100dvh', bg: 'bg.canvas' })
const column = css({
  maxW: '4xl',
  mx: 'auto',
  px: { base: '4', md: '6' },
  py: { base: '6', md: '10' },
  display: 'flex',
  flexDirection: 'column',
  gap: '6',
})
const bar = css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })
const footer = css({ textStyle: 'xs', color: 'fg.muted', textAlign: 'center', pt: '4' })

const downloadOf = (slug: string) => (id: number) =>
  `${API_PREFIX}${paths.publicTrust.download(slug, id)}`

/**
 * /trust/{slug} in the browser (issue 40): the server's HTML is replaced by the same page read
 * from its JSON, with what needs a script: requesting documents under NDA, the reader session
 * from the emailed link (and its end), and the ask box. Anyone may open it; no staff session is
 * sent with its calls.
 */
export default function TrustCentrePage(props: { logic?: Partial<TrustCentreLogics> }) {
  const { slug } = useParams({ strict: false }) as { slug: string }
  const search: { access?: string } = useSearch({ strict: false })
  const logics = { ...logic, ...props.logic }
  const centre = useActorRef(logics.centre, { input: { slug } })
  const reader = useActorRef(logics.reader, { input: { slug, access: search.access ?? null } })
  const view = useView(centre, trustCentreView)
  const navigate = useNavigate()
  useEmitted(
    () => [
      // the link's token is spent: it leaves the address bar (and the history)
      reader.on('opened', () => {
        void navigate({ to: '.', search: {}, replace: true })
      }),
      centre.subscribe((snapshot) => {
        const name = snapshot.context.page?.organization.name
        document.title = name ? `${name} Trust Center` : 'Trust Center'
      }),
    ],
    [reader, centre, navigate],
  )
  return (
    <div className={shell}>
      <main className={column}>
        {view.unavailable ? (
          <div>
            <h1 className={css({ textStyle: '2xl', fontWeight: 'bold' })}>Not available</h1>
            <p className={css({ mt: '2' })}>{TRUST_TEXTS.notFound}</p>
          </div>
        ) : view.failed ? (
          <div className={`${callout({ tone: 'error', layout: 'bar' })}`} role="alert">
            <span className={css({ flex: '1' })}>{view.error}</span>
            <Button size="sm" variant="outline" onClick={() => centre.send({ type: 'retry' })}>
              Try Again
            </Button>
          </div>
        ) : view.page ? (
          <Loaded page={view.page} slug={slug} centre={centre} reader={reader} logics={logics} />
        ) : (
          <p className={css({ color: 'fg.muted' })}>Loading...</p>
        )}
        <p className={footer}>This page is published with Quire.</p>
      </main>
    </div>
  )
}

function Loaded(props: {
  page: PublicTrustPage
  slug: string
  centre: ActorRefFrom<typeof trustCentreMachine>
  reader: ActorRefFrom<typeof trustReaderMachine>
  logics: TrustCentreLogics
}) {
  const { page, slug, centre, reader } = props
  const session = useView(reader, trustReaderView)
  const request = useActorRef(props.logics.request, {
    input: { slug, ndaVersion: page.nda.version },
  })
  const ask = useActorRef(props.logics.ask, { input: { slug } })
  useEmitted(
    () => [
      // the NDA changed since the page was read: read it again, and the form takes its version
      request.on('ndaChanged', () => centre.send({ type: 'reload' })),
      centre.subscribe((snapshot) => {
        const version = snapshot.context.page?.nda.version
        if (version !== undefined) request.send({ type: 'nda', version })
      }),
    ],
    [request, centre],
  )
  const gated = page.documents.some((file) => file.visibility === 'nda')
  return (
    <>
      {session.linkToOpen && (
        <div className={callout({ tone: 'info', layout: 'bar' })}>
          <span className={css({ flex: '1' })}>
            Your access to the documents under NDA was approved.
          </span>
          <Button size="sm" loading={session.opening} onClick={() => reader.send({ type: 'open' })}>
            Open the documents
          </Button>
        </div>
      )}
      {session.reader && (
        <p className={callout({ tone: 'info' })} role="status">
          Reading as {session.reader.email} until {formatDay(session.reader.expires_at)}: documents
          under NDA download marked with your email address.
        </p>
      )}
      {session.error && (
        <div className={`${callout({ tone: 'error', layout: 'bar' })} ${bar}`} role="alert">
          <span className={css({ flex: '1' })}>{session.error}</span>
          <Button size="sm" variant="outline" onClick={() => reader.send({ type: 'dismiss' })}>
            Dismiss
          </Button>
        </div>
      )}
      <TrustPageView
        page={page}
        downloadOf={downloadOf(slug)}
        reader={session.reader !== null}
        logoUrl={`${API_PREFIX}${paths.publicTrust.logo(slug)}`}
        requestSlot={
          gated && !session.reader ? (
            <RequestAccess actor={request} ndaText={page.nda.text} ndaVersion={page.nda.version} />
          ) : null
        }
      >
        <AskBox actor={ask} />
      </TrustPageView>
    </>
  )
}
