import { useActorRef } from '@xstate/react'
import { css } from 'styled-system/css'
import { TRUST_TEXTS } from '../../../../contract/trust.ts'
import { trustContentView } from '../../../../machines/trust-content/index.ts'
import { trustPageEditorView } from '../../../../machines/trust-page-editor/index.ts'
import { DECISION_TEXTS, trustRequestsView } from '../../../../machines/trust-requests/index.ts'
import {
  createTrustAnalyticsLogic,
  createTrustContentLogic,
  createTrustEditorLogic,
  createTrustRequestsLogic,
} from '../../../api/trust-actors.ts'
import { ToasterContext } from '../../../app/toaster.tsx'
import { useEmitted } from '../../../app/use-emitted.ts'
import { useView } from '../../../app/use-view.ts'
import { focusRing } from '../../../components/styles.ts'
import { AnalyticsPanel } from './analytics-panel.tsx'
import { ContentPanel } from './content-panel.tsx'
import { PagePanel } from './page-panel.tsx'
import { RequestsPanel } from './requests-panel.tsx'

const defaults = {
  editor: createTrustEditorLogic(),
  content: createTrustContentLogic(),
  requests: createTrustRequestsLogic(),
  analytics: createTrustAnalyticsLogic(),
}
export type TrustLogic = Partial<typeof defaults>

const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const intro = css({ color: 'fg.muted', textStyle: 'sm', mt: '1', maxW: '2xl' })
const part = css({ display: 'grid', gap: '3', scrollMarginTop: '20' })
const partHeading = css({
  textStyle: 'md',
  fontWeight: 'semibold',
  pb: '2',
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
})
const jump = css({ display: 'flex', gap: '1', flexWrap: 'wrap', mt: '3' })
const jumpLink = css({
  px: '2.5',
  py: '1',
  borderRadius: 'l2',
  textStyle: 'sm',
  color: 'fg.muted',
  textDecoration: 'none',
  _hover: { bg: 'gray.a3', color: 'fg.default' },
})

/**
 * Settings → Trust centre (issue 40). Admins keep the page, decide requests and read the
 * figures; approvers (who curate the library) say what of it is public. Each part renders its
 * own machine.
 */
export function TrustSection(props: {
  logic?: TrustLogic
  admin: boolean
  organizationName: string
}) {
  const logic = { ...defaults, ...props.logic }
  const content = useActorRef(logic.content)
  const items = useView(content, trustContentView).items
  return (
    <section
      aria-labelledby="trust-heading"
      className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8' })}
    >
      <div>
        <h2 id="trust-heading" className={heading}>
          Trust centre
        </h2>
        <p className={intro}>
          A public page of your security posture: what you publish here answers customers before
          they send a questionnaire. Documents under NDA are read by those you approve.
        </p>
        {props.admin && (
          <nav className={jump} aria-label="Trust centre">
            {[
              ['trust-page', 'The page'],
              ['trust-requests', 'Requests'],
              ['trust-content', 'What is public'],
              ['trust-analytics', 'Analytics'],
            ].map(([id, label]) => (
              <a key={id} href={`#${id}`} className={`${jumpLink} ${focusRing}`}>
                {label}
              </a>
            ))}
          </nav>
        )}
      </div>
      {props.admin ? (
        <AdminParts logic={logic} items={items} organizationName={props.organizationName} />
      ) : (
        <p className={intro}>{TRUST_TEXTS.approverNote}</p>
      )}
      <div id="trust-content" className={part}>
        <h3 className={partHeading}>What is public</h3>
        <ContentPanel actor={content} />
      </div>
      {props.admin && <Analytics logic={logic} />}
    </section>
  )
}

function AdminParts(props: {
  logic: typeof defaults
  items: ReturnType<typeof trustContentView.items>
  organizationName: string
}) {
  const editor = useActorRef(props.logic.editor)
  const requests = useActorRef(props.logic.requests)
  const grantDays = useView(editor, trustPageEditorView).saved?.grant_days ?? 30
  const waiting = useView(requests, trustRequestsView).pendingCount
  const toaster = ToasterContext.useActorRef()
  useEmitted(
    () => [
      requests.on('decided', (event) =>
        toaster.send({
          type: 'toast.show',
          toast: { type: 'success', title: DECISION_TEXTS[event.action] },
        }),
      ),
    ],
    [requests, toaster],
  )
  return (
    <>
      <div id="trust-page" className={part}>
        <h3 className={partHeading}>The page</h3>
        <PagePanel actor={editor} items={props.items} organizationName={props.organizationName} />
      </div>
      <div id="trust-requests" className={part}>
        <h3 className={partHeading}>Requests{waiting > 0 ? ` (${waiting} waiting)` : ''}</h3>
        <RequestsPanel actor={requests} grantDays={grantDays} />
      </div>
    </>
  )
}

function Analytics(props: { logic: typeof defaults }) {
  const analytics = useActorRef(props.logic.analytics)
  return (
    <div id="trust-analytics" className={part}>
      <h3 className={partHeading}>Analytics</h3>
      <AnalyticsPanel actor={analytics} />
    </div>
  )
}
