import { ExternalLink } from 'lucide-react'
import { css } from 'styled-system/css'
import { textarea } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import type { PublicTrustPage, TrustItems } from '../../../../contract/trust.ts'
import {
  type TrustForm,
  type trustPageEditorMachine,
  trustPageEditorView,
} from '../../../../machines/trust-page-editor/index.ts'
import { useView } from '../../../app/use-view.ts'
import { callout, formStack, grid2 } from '../../../components/form-styles.ts'
import { RetryAlert } from '../../../components/row-actions.tsx'
import { fieldLabel, toolbar } from '../../../components/styles.ts'
import { Button } from '../../../components/ui/button.tsx'
import * as Field from '../../../components/ui/field.tsx'
import { TrustPageView } from '../../trust/trust-page-view.tsx'
import {
  CertificationsEditor,
  SectionPicker,
  SubprocessorsEditor,
  UpdatesEditor,
} from './page-lists.tsx'

const status = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '3',
  alignItems: 'center',
  justifyContent: 'space-between',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
})
const dot = (on: boolean) =>
  css({
    display: 'inline-block',
    w: '2',
    h: '2',
    borderRadius: 'full',
    mr: '2',
    bg: on ? 'green.9' : 'gray.8',
  })
const link = css({
  color: 'colorPalette.text',
  display: 'inline-flex',
  gap: '1',
  alignItems: 'center',
  textDecoration: 'underline',
  overflowWrap: 'anywhere',
})
const previewFrame = css({
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'l3',
  p: { base: '4', md: '8' },
  bg: 'bg.canvas',
})
const subheading = css({ textStyle: 'md', fontWeight: 'semibold', mt: '2' })
const help = css({ textStyle: 'xs', color: 'fg.muted', mt: '1' })

/** The page as visitors would read it, from the form as edited and what is marked public. */
export function previewOf(form: TrustForm, items: TrustItems, name: string): PublicTrustPage {
  const onPage = items.files.filter((file) => file.visibility !== 'private')
  return {
    slug: form.slug ?? '',
    organization: { name, logo: false },
    sections: form.sections,
    overview: form.overview,
    certifications: form.certifications.map((cert) => ({
      name: cert.name,
      date: cert.date ?? null,
      document_id: onPage.some((file) => file.id === cert.file_id) ? (cert.file_id ?? null) : null,
    })),
    practices: items.qa
      .filter((item) => item.visibility === 'public')
      .map(({ id, question, answer }) => ({ id, question, answer })),
    subprocessors: form.subprocessors,
    documents: onPage.map((file) => ({
      id: file.id,
      name: file.name,
      size: file.size,
      visibility: file.visibility === 'nda' ? 'nda' : 'public',
    })),
    updates: form.updates,
    contact_email: form.contact_email,
    nda: { version: 0, text: form.nda_text },
  }
}

/**
 * Settings → Trust centre, the page (admins): renders the page editor machine and sends its
 * events; the preview shows the page from the form before anything is saved.
 */
export function PagePanel(props: {
  actor: ActorRefFrom<typeof trustPageEditorMachine>
  items: TrustItems
  organizationName: string
}) {
  const { actor } = props
  const view = useView(actor, trustPageEditorView)
  const edit = (change: Partial<TrustForm>) => actor.send({ type: 'edit', change })
  if (view.failed)
    return <RetryAlert error={view.error ?? ''} onRetry={() => actor.send({ type: 'retry' })} />
  if (view.loading) return <p className={css({ color: 'fg.muted' })}>Loading...</p>
  const published = view.saved?.published ?? false
  const address = view.saved?.slug ? `${window.location.origin}/trust/${view.saved.slug}` : null
  return (
    <div className={formStack}>
      <div className={status}>
        <span>
          <span className={dot(published)} aria-hidden />
          <span data-testid="trust-status">{published ? 'Published' : 'Not published'}</span>
          {address && published && (
            <>
              {' at '}
              <a className={link} href={address} target="_blank" rel="noreferrer">
                {address} <ExternalLink size={14} aria-hidden />
              </a>
            </>
          )}
        </span>
        <div className={toolbar}>
          {view.justSaved && (
            <span role="status" className={css({ color: 'green.11' })}>
              Saved
            </span>
          )}
          <Button
            size="sm"
            variant="outline"
            onClick={() => actor.send({ type: view.preview ? 'back' : 'preview' })}
          >
            {view.preview ? 'Back to editing' : 'Preview'}
          </Button>
          <Button
            size="sm"
            variant={published ? 'outline' : 'solid'}
            loading={view.busy}
            onClick={() => actor.send({ type: 'publish', published: !published })}
          >
            {published ? 'Unpublish' : 'Publish'}
          </Button>
        </div>
      </div>
      {view.error && (
        <p className={callout({ tone: 'error' })} role="alert">
          {view.error}
        </p>
      )}
      {view.preview ? (
        <section className={previewFrame} aria-label="Preview">
          <TrustPageView
            page={previewOf(view.form, props.items, props.organizationName)}
            downloadOf={null}
            reader={false}
          />
        </section>
      ) : (
        <form
          className={formStack}
          noValidate
          aria-label="The trust centre’s page"
          onSubmit={(event) => {
            event.preventDefault()
            actor.send({ type: 'save' })
          }}
        >
          <Field.Root>
            <Field.Label>Page address</Field.Label>
            <Field.Input
              value={view.form.slug ?? ''}
              placeholder="your-company"
              onChange={(event) => edit({ slug: event.target.value })}
            />
            <Field.HelperText>
              {window.location.origin}/trust/{view.form.slug || 'your-company'}
            </Field.HelperText>
          </Field.Root>
          <SectionPicker
            sections={view.form.sections}
            onChange={(sections) => edit({ sections })}
          />
          <div>
            <label className={fieldLabel} htmlFor="trust-overview">
              Overview
            </label>
            <textarea
              id="trust-overview"
              className={textarea({ size: 'sm' })}
              rows={4}
              value={view.form.overview}
              onChange={(event) => edit({ overview: event.target.value })}
            />
          </div>
          <CertificationsEditor
            list={view.form.certifications}
            files={props.items.files}
            onChange={(certifications) => edit({ certifications })}
          />
          <SubprocessorsEditor
            list={view.form.subprocessors}
            onChange={(subprocessors) => edit({ subprocessors })}
          />
          <UpdatesEditor list={view.form.updates} onChange={(updates) => edit({ updates })} />
          <Field.Root>
            <Field.Label>Contact address</Field.Label>
            <Field.Input
              type="email"
              value={view.form.contact_email ?? ''}
              placeholder="security@your-company.com"
              onChange={(event) => edit({ contact_email: event.target.value })}
            />
            <Field.HelperText>
              Shown on the page, and where the ask box sends a question it cannot answer.
            </Field.HelperText>
          </Field.Root>
          <h4 className={subheading}>Documents under NDA</h4>
          <div>
            <label className={fieldLabel} htmlFor="trust-nda-text">
              The NDA visitors accept (version {view.saved?.nda_version ?? 0})
            </label>
            <textarea
              id="trust-nda-text"
              className={textarea({ size: 'sm' })}
              rows={6}
              value={view.form.nda_text}
              onChange={(event) => edit({ nda_text: event.target.value })}
            />
            <p className={help}>
              Changing the text makes a new version; each acceptance keeps the text accepted.
            </p>
          </div>
          <div className={grid2}>
            <Field.Root>
              <Field.Label>Approve at once for these email domains</Field.Label>
              <Field.Input
                value={view.form.auto_approve_domains.join(', ')}
                placeholder="partner.com"
                onChange={(event) =>
                  edit({
                    auto_approve_domains: event.target.value
                      .split(/[\s,]+/)
                      .map((domain) => domain.trim().toLowerCase())
                      .filter(Boolean),
                  })
                }
              />
              <Field.HelperText>Others wait for an admin.</Field.HelperText>
            </Field.Root>
            <Field.Root>
              <Field.Label>Access lasts (days)</Field.Label>
              <Field.Input
                type="number"
                min={1}
                max={365}
                value={String(view.form.grant_days)}
                onChange={(event) => edit({ grant_days: Number(event.target.value) || 0 })}
              />
            </Field.Root>
          </div>
          <div className={toolbar}>
            <Button type="submit" loading={view.busy} disabled={!view.changed}>
              Save
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={!view.changed}
              onClick={() => actor.send({ type: 'reset' })}
            >
              Discard changes
            </Button>
          </div>
        </form>
      )}
    </div>
  )
}
