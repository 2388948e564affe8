import { css } from 'styled-system/css'
import { textarea } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { TRUST_REQUEST_TEXTS } from '../../../contract/trust.ts'
import {
  type trustRequestMachine,
  trustRequestView,
} from '../../../machines/trust-request/index.ts'
import { useView } from '../../app/use-view.ts'
import { callout, formStack, grid2 } from '../../components/form-styles.ts'
import { fieldLabel } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'

const panel = css({
  mt: '4',
  p: { base: '4', md: '5' },
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
})
const ndaBox = css({
  maxH: '48',
  overflowY: 'auto',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.subtle',
  textStyle: 'sm',
  whiteSpace: 'pre-line',
})
const check = css({ display: 'flex', gap: '2', alignItems: 'flex-start', textStyle: 'sm' })
const box = css({ mt: '0.5', w: '4', h: '4', accentColor: 'colorPalette.default', flexShrink: 0 })
const actions = css({ display: 'flex', gap: '3', flexWrap: 'wrap' })

/**
 * The request for documents under NDA (issue 40): renders the request machine and sends its
 * events. The NDA's text is shown in full above its acceptance.
 */
export function RequestAccess(props: {
  actor: ActorRefFrom<typeof trustRequestMachine>
  ndaText: string
  ndaVersion: number
}) {
  const { actor } = props
  const view = useView(actor, trustRequestView)
  const edit = (change: Partial<typeof view.form>) => actor.send({ type: 'edit', change })
  if (view.sent)
    return (
      <div className={`${css({ mt: '4' })} ${callout({ tone: 'info' })}`} role="status">
        {view.outcome === 'approved' ? TRUST_REQUEST_TEXTS.approved : TRUST_REQUEST_TEXTS.received}
      </div>
    )
  if (!view.open)
    return (
      <div className={css({ mt: '4' })}>
        <Button onClick={() => actor.send({ type: 'start' })}>Request access</Button>
      </div>
    )
  return (
    <form
      className={`${panel} ${formStack}`}
      aria-label="Request access"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: 'submit' })
      }}
    >
      <h3 className={css({ fontWeight: 'semibold' })}>Request access to the documents under NDA</h3>
      <div className={grid2}>
        <Field.Root>
          <Field.Label>Name</Field.Label>
          <Field.Input
            autoComplete="name"
            value={view.form.name}
            onChange={(event) => edit({ name: event.target.value })}
          />
        </Field.Root>
        <Field.Root>
          <Field.Label>Work email</Field.Label>
          <Field.Input
            type="email"
            autoComplete="email"
            value={view.form.email}
            onChange={(event) => edit({ email: event.target.value })}
          />
        </Field.Root>
      </div>
      <Field.Root>
        <Field.Label>Company</Field.Label>
        <Field.Input
          autoComplete="organization"
          value={view.form.company}
          onChange={(event) => edit({ company: event.target.value })}
        />
      </Field.Root>
      <div>
        <label className={fieldLabel} htmlFor="trust-reason">
          Reason (optional)
        </label>
        <textarea
          id="trust-reason"
          className={textarea({ size: 'sm' })}
          rows={2}
          value={view.form.reason}
          onChange={(event) => edit({ reason: event.target.value })}
        />
      </div>
      <div>
        <p className={fieldLabel}>Non-disclosure agreement (version {props.ndaVersion})</p>
        <div id="trust-nda" className={ndaBox}>
          {props.ndaText || 'The documents are shared in confidence, for your review only.'}
        </div>
      </div>
      <label className={check}>
        <input
          type="checkbox"
          className={box}
          aria-describedby="trust-nda"
          checked={view.form.nda_accepted}
          onChange={(event) => edit({ nda_accepted: event.target.checked })}
        />
        <span>I have read and accept the NDA on behalf of my company</span>
      </label>
      {view.error && (
        <p className={callout({ tone: 'error' })} role="alert">
          {view.error}
        </p>
      )}
      <div className={actions}>
        <Button type="submit" loading={view.sending}>
          Send the request
        </Button>
        <Button type="button" variant="outline" onClick={() => actor.send({ type: 'cancel' })}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
