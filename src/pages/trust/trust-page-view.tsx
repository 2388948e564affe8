import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import type { PublicTrustPage, TrustSection } from '../../../contract/trust.ts'
import { formatCalendarDay } from '../../lib/format.ts'

export const SECTION_TITLES: Record<TrustSection, string> = {
  overview: 'Overview',
  certifications: 'Certifications and frameworks',
  practices: 'Security practices',
  subprocessors: 'Sub-processors',
  documents: 'Documents',
  updates: 'Updates',
  contact: 'Contact',
}

const page = css({ display: 'flex', flexDirection: 'column', gap: '8' })
const head = css({
  display: 'flex',
  alignItems: 'center',
  gap: '4',
  pb: '5',
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
})
const logo = css({ h: '12', w: 'auto', maxW: '40', objectFit: 'contain' })
const title = css({
  textStyle: { base: '2xl', md: '3xl' },
  fontWeight: 'bold',
  lineHeight: 'tight',
})
const subtitle = css({ color: 'fg.muted', mt: '1' })
const sectionTitle = css({ textStyle: 'lg', fontWeight: 'semibold', mb: '3' })
const list = css({ display: 'grid', gap: '2', listStyle: 'none', p: '0', m: '0' })
const twoColumns = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
  gap: '2',
  listStyle: 'none',
  p: '0',
  m: '0',
})
const item = css({
  bg: 'bg.default',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  px: '4',
  py: '3',
  textStyle: 'sm',
  minW: '0',
})
const itemHead = css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })
const meta = css({ color: 'fg.muted', textStyle: 'xs', mt: '0.5' })
const prose = css({ lineHeight: '1.6', whiteSpace: 'pre-line', '& + &': { mt: '3' } })
const tag = css({
  display: 'inline-block',
  ml: '2',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  textStyle: 'xs',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
  whiteSpace: 'nowrap',
})
const link = css({
  color: 'colorPalette.text',
  textDecoration: 'underline',
  overflowWrap: 'anywhere',
})

const size = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1048576).toFixed(1)} MB`

const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((part) => part.trim())
    .filter(Boolean)

/**
 * The trust centre's page (issue 40) as the SPA shows it: every section the admin chose, in the
 * order chosen, the same as the server's HTML. Used by /trust/{slug} and by the admin's preview.
 */
export function TrustPageView(props: {
  page: PublicTrustPage
  /** Where a document downloads; null in the preview (nothing to download there). */
  downloadOf: ((id: number) => string) | null
  /** Whether the visitor reads documents under NDA (a reader session). */
  reader: boolean
  logoUrl?: string | null
  /** Said under the documents under NDA when the visitor has no access (the request form). */
  requestSlot?: ReactNode
  /** The ask box, under the sections. */
  children?: ReactNode
}) {
  const { page: content } = props
  const name = content.organization.name
  const documentLink = (id: number, label: string) =>
    props.downloadOf ? (
      <a className={link} href={props.downloadOf(id)} download>
        {label}
      </a>
    ) : (
      <span className={link}>{label}</span>
    )
  const section = (kind: TrustSection) => {
    switch (kind) {
      case 'overview':
        return content.overview
          ? paragraphs(content.overview).map((text) => (
              <p key={text} className={prose}>
                {text}
              </p>
            ))
          : null
      case 'certifications':
        return content.certifications.length ? (
          <ul className={twoColumns}>
            {content.certifications.map((cert) => (
              <li key={`${cert.name}-${cert.date}`} className={item}>
                <div className={itemHead}>{cert.name}</div>
                <div className={meta}>
                  {cert.date ? formatCalendarDay(cert.date) : 'In place'}
                  {cert.document_id !== null && <> · {documentLink(cert.document_id, 'Report')}</>}
                </div>
              </li>
            ))}
          </ul>
        ) : null
      case 'practices':
        return content.practices.length ? (
          <ul className={list}>
            {content.practices.map((practice) => (
              <li key={practice.id} className={item}>
                <div className={itemHead}>{practice.question}</div>
                <p className={css({ mt: '1', color: 'fg.default', whiteSpace: 'pre-line' })}>
                  {practice.answer}
                </p>
              </li>
            ))}
          </ul>
        ) : null
      case 'subprocessors':
        return content.subprocessors.length ? (
          <ul className={twoColumns}>
            {content.subprocessors.map((sub) => (
              <li key={sub.name} className={item}>
                <div className={itemHead}>{sub.name}</div>
                <div className={meta}>
                  {[sub.purpose, sub.location].filter(Boolean).join(' · ')}
                </div>
              </li>
            ))}
          </ul>
        ) : null
      case 'documents':
        return content.documents.length ? (
          <>
            <ul className={list}>
              {content.documents.map((file) => (
                <li key={file.id} className={item}>
                  {file.visibility === 'public' || props.reader ? (
                    documentLink(file.id, file.name)
                  ) : (
                    <span className={itemHead}>{file.name}</span>
                  )}
                  {file.visibility === 'public' ? (
                    <span className={meta}> {size(file.size)}</span>
                  ) : (
                    <span className={tag}>
                      {props.reader ? 'Under NDA: marked with your email' : 'Under NDA: on request'}
                    </span>
                  )}
                </li>
              ))}
            </ul>
            {props.requestSlot}
          </>
        ) : null
      case 'updates':
        return content.updates.length ? (
          <ul className={list}>
            {content.updates.map((update) => (
              <li key={`${update.date}-${update.title}`} className={item}>
                <div className={itemHead}>{update.title}</div>
                <div className={meta}>{formatCalendarDay(update.date)}</div>
                {paragraphs(update.body).map((text) => (
                  <p key={text} className={css({ mt: '2', lineHeight: '1.6' })}>
                    {text}
                  </p>
                ))}
              </li>
            ))}
          </ul>
        ) : null
      case 'contact':
        return content.contact_email ? (
          <p>
            <a className={link} href={`mailto:${content.contact_email}`}>
              {content.contact_email}
            </a>
          </p>
        ) : null
    }
  }
  const shown = content.sections
    .map((kind) => ({ kind, body: section(kind) }))
    .filter((entry) => entry.body !== null)
  return (
    <article className={page} aria-label={`${name} Trust Center`}>
      <header className={head}>
        {content.organization.logo && props.logoUrl && (
          <img className={logo} src={props.logoUrl} alt={`${name} logo`} />
        )}
        <div>
          <h1 className={title}>{name} Trust Center</h1>
          <p className={subtitle}>How {name} protects its customers' data.</p>
        </div>
      </header>
      {shown.length === 0 && (
        <p className={css({ color: 'fg.muted' })}>Nothing is published here yet.</p>
      )}
      {shown.map(({ kind, body }) => (
        <section key={kind} aria-labelledby={`trust-${kind}`}>
          <h2 id={`trust-${kind}`} className={sectionTitle}>
            {SECTION_TITLES[kind]}
          </h2>
          {body}
        </section>
      ))}
      {props.children}
    </article>
  )
}
