import { Link } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { css } from 'styled-system/css'
import { LEGAL_TITLES, type LegalKind } from '../../../contract/legal.ts'
import { legalPageView } from '../../../machines/legal-page/index.ts'
import { createLegalLogic, type LegalLogic } from '../../api/legal-actors.ts'
import { useView } from '../../app/use-view.ts'
import { Markdown } from '../../components/markdown.tsx'
import { Button } from '../../components/ui'
import { AuthLayout, authStyles } from '../auth/auth-layout.tsx'
import { FormAlert, Pending } from '../auth/auth-parts.tsx'

const defaultLogic = createLegalLogic()
const footer = css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: '4' })
const note = css({ textStyle: 'xs', color: 'fg.muted' })

/** /terms and /privacy (issue 30): the instance's own text, or the plain default. */
export function LegalPage(props: { kind: LegalKind; logic?: LegalLogic }) {
  const actor = useActorRef(props.logic ?? defaultLogic, { input: { kind: props.kind } })
  const view = useView(actor, legalPageView)
  const other: LegalKind = props.kind === 'terms' ? 'privacy' : 'terms'
  return (
    <AuthLayout
      wide
      title={LEGAL_TITLES[props.kind]}
      footer={
        <div className={footer}>
          <Link to={`/${other}`} className={authStyles.link}>
            {LEGAL_TITLES[other]}
          </Link>
          <Link to="/" className={authStyles.link}>
            Back to Quire
          </Link>
        </div>
      }
    >
      {view.loading && <Pending text="Loading..." />}
      {view.error && (
        <>
          <FormAlert>{view.error}</FormAlert>
          <Button variant="outline" onClick={() => actor.send({ type: 'retry' })}>
            Try Again
          </Button>
        </>
      )}
      {view.document?.url && (
        <p className={authStyles.muted}>
          The operator of this instance publishes this page at{' '}
          <a className={authStyles.link} href={view.document.url}>
            {view.document.url}
          </a>
          .
        </p>
      )}
      {view.document && !view.document.url && (
        <>
          <Markdown text={view.document.markdown} />
          {!view.document.custom && (
            <p className={note}>
              The operator of this instance has not published their own text; this is the default
              that comes with Quire.
            </p>
          )}
        </>
      )}
    </AuthLayout>
  )
}

export function TermsPage() {
  return <LegalPage kind="terms" />
}
export function PrivacyPage() {
  return <LegalPage kind="privacy" />
}
