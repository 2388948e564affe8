import { useActorRef } from '@xstate/react'
import { Plus } from 'lucide-react'
import { css } from 'styled-system/css'
import {
  WEBHOOK_EVENTS,
  WEBHOOK_KINDS,
  type Webhook,
  type WebhookEvent,
  type WebhookKind,
} from '../../../contract/platform.ts'
import { webhooksView } from '../../../machines/webhooks/index.ts'
import { createWebhooksLogic, type WebhooksLogic } from '../../api/platform-actors.ts'
import { useView } from '../../app/use-view.ts'
import { DialogActions, DialogForm, DialogFrame } from '../../components/dialog-frame.tsx'
import { callout } from '../../components/form-styles.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { dialogBox, pill, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { formatExact } from '../../lib/format.ts'

const defaultLogic = createWebhooksLogic()

export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'questionnaire.analysed': 'A questionnaire was read',
  'generation.completed': 'Answers were drafted',
  'answer.approved': 'An answer was approved',
  'questionnaire.exported': 'A questionnaire was exported',
  'trust.access_requested': 'Someone asked for the trust centre’s documents',
  'library.answer_stale': 'A library answer is due for review',
}
const KIND_LABELS: Record<WebhookKind, string> = {
  standard: 'Standard Webhooks (signed JSON)',
  slack: 'Slack incoming webhook',
  teams: 'Microsoft Teams incoming webhook',
}

const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const intro = css({ color: 'fg.muted', textStyle: 'sm', mt: '1', maxW: '2xl' })
const list = css({ display: 'grid', gap: '2', listStyle: 'none', p: '0', m: '0' })
const row = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'minmax(0, 1fr) auto' },
  gap: '3',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
})
const url = css({
  fontFamily: 'mono',
  textStyle: 'xs',
  overflowWrap: 'anywhere',
  fontWeight: 'medium',
})
const muted = css({ color: 'fg.muted', textStyle: 'xs', mt: '1' })
const check = css({ display: 'flex', gap: '2', alignItems: 'flex-start', textStyle: 'sm' })
const box = css({ mt: '0.5', w: '4', h: '4', accentColor: 'colorPalette.default', flexShrink: 0 })
const secret = css({
  fontFamily: 'mono',
  textStyle: 'sm',
  p: '3',
  borderRadius: 'l2',
  bg: 'gray.a3',
  wordBreak: 'break-all',
})
const okPill = css({ bg: 'green.a3', color: 'green.text' })
const offPill = css({ bg: 'red.a3', color: 'red.text' })
const retryPill = css({ bg: 'amber.a3', color: 'amber.text' })

/**
 * Settings → Webhooks (issue 41, admins): renders the webhooks machine and sends its events.
 * The signing secret shows once; each endpoint's log lists its deliveries and their attempts.
 */
export function WebhooksSection({ logic = defaultLogic }: { logic?: WebhooksLogic }) {
  const actor = useActorRef(logic)
  const view = useView(actor, webhooksView)
  const form = view.form
  const edit = (change: Partial<typeof form>) => actor.send({ type: 'edit', change })
  const toggle = (event: WebhookEvent, on: boolean) =>
    edit({ events: on ? [...form.events, event] : form.events.filter((e) => e !== event) })
  return (
    <section
      aria-labelledby="webhooks-heading"
      className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4' })}
    >
      <div
        className={css({
          display: 'flex',
          gap: '3',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
        })}
      >
        <div>
          <h2 id="webhooks-heading" className={heading}>
            Webhooks
          </h2>
          <p className={intro}>
            Quire tells your other systems when something happens: a signed POST to each endpoint
            (Standard Webhooks), retried for a day, or a message to a Slack or Teams channel.
          </p>
        </div>
        <Button onClick={() => actor.send({ type: 'start' })} disabled={view.loading}>
          <Plus /> New endpoint
        </Button>
      </div>
      {view.error && !view.editing && !view.log && (
        <p className={callout({ tone: 'error' })} role="alert">
          {view.error}
        </p>
      )}
      {view.failed ? (
        <RetryAlert error={view.error ?? ''} onRetry={() => actor.send({ type: 'retry' })} />
      ) : view.loading && !view.log ? (
        <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>Loading...</p>
      ) : view.hooks.length === 0 ? (
        <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>No endpoint yet.</p>
      ) : (
        <ul className={list} aria-label="Endpoints">
          {view.hooks.map((hook: Webhook) => (
            <li key={hook.id} className={row}>
              <div>
                <div
                  className={css({
                    display: 'flex',
                    gap: '2',
                    flexWrap: 'wrap',
                    alignItems: 'center',
                  })}
                >
                  <span className={url}>{hook.url}</span>
                  <span className={`${pill} ${hook.enabled ? okPill : offPill}`}>
                    {hook.enabled ? 'On' : 'Disabled'}
                  </span>
                </div>
                <div className={muted}>
                  {KIND_LABELS[hook.kind]} ·{' '}
                  {hook.events.map((event) => EVENT_LABELS[event]).join(', ')}
                </div>
                {hook.disabled_reason && <div className={muted}>{hook.disabled_reason}</div>}
              </div>
              <div className={toolbar}>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => actor.send({ type: 'open', hook })}
                >
                  Deliveries
                </Button>
                {!hook.enabled && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => actor.send({ type: 'enable', hook })}
                  >
                    Enable
                  </Button>
                )}
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Remove ${hook.url}`}
                  onClick={() => actor.send({ type: 'remove', hook })}
                >
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {/* one dialog from the form to what is shown once: two dialogs swapping would close it */}
      <DialogFrame
        open={view.editing || view.created !== null}
        onClose={() => actor.send({ type: view.created ? 'done' : 'cancel' })}
        title={view.created ? 'Copy the signing secret now' : 'New webhook endpoint'}
        description={
          view.created
            ? "It is shown this once. Check each delivery's webhook-signature with it."
            : undefined
        }
        className={dialogBox({ size: 'md' })}
      >
        {view.created ? (
          <>
            <p className={secret} data-testid="webhook-secret">
              {view.created?.secret}
            </p>
            <div className={toolbar}>
              <Button onClick={() => actor.send({ type: 'done' })}>Done</Button>
            </div>
          </>
        ) : (
          <>
            <DialogForm noValidate onSubmit={() => actor.send({ type: 'create' })}>
              <Field.Root>
                <Field.Label>Endpoint address</Field.Label>
                <Field.Input
                  type="url"
                  value={form.url}
                  placeholder="https://hooks.example.com/quire"
                  onChange={(event) => edit({ url: event.target.value })}
                />
              </Field.Root>
              <fieldset className={css({ display: 'grid', gap: '2' })}>
                <legend className={css({ textStyle: 'sm', fontWeight: 'medium', mb: '1' })}>
                  Kind
                </legend>
                {WEBHOOK_KINDS.map((kind) => (
                  <label key={kind} className={check}>
                    <input
                      type="radio"
                      name="webhook-kind"
                      className={box}
                      checked={form.kind === kind}
                      onChange={() => edit({ kind })}
                    />
                    <span>{KIND_LABELS[kind]}</span>
                  </label>
                ))}
              </fieldset>
              <fieldset className={css({ display: 'grid', gap: '2' })}>
                <legend className={css({ textStyle: 'sm', fontWeight: 'medium', mb: '1' })}>
                  Events
                </legend>
                {WEBHOOK_EVENTS.map((event) => (
                  <label key={event} className={check}>
                    <input
                      type="checkbox"
                      className={box}
                      checked={form.events.includes(event)}
                      onChange={(change) => toggle(event, change.target.checked)}
                    />
                    <span>{EVENT_LABELS[event]}</span>
                  </label>
                ))}
              </fieldset>
              {view.error && (
                <p className={callout({ tone: 'error' })} role="alert">
                  {view.error}
                </p>
              )}
              <DialogActions
                onCancel={() => actor.send({ type: 'cancel' })}
                confirmLabel="Add endpoint"
                busy={view.busy}
              />
            </DialogForm>
          </>
        )}
      </DialogFrame>

      <DialogFrame
        open={view.confirming}
        onClose={() => actor.send({ type: 'cancel' })}
        title="Remove this endpoint?"
        description={`${view.selected?.url ?? ''}: Quire stops sending to it, and its log goes.`}
        className={dialogBox({ size: 'md' })}
      >
        <DialogActions
          onCancel={() => actor.send({ type: 'cancel' })}
          confirmLabel="Remove"
          onConfirm={() => actor.send({ type: 'confirm' })}
          busy={view.busy}
        />
      </DialogFrame>

      <DialogFrame
        open={view.log}
        onClose={() => actor.send({ type: 'close' })}
        title="Deliveries"
        description={view.selected?.url}
        className={dialogBox({ size: 'wide' })}
      >
        {view.error && (
          <p className={callout({ tone: 'error' })} role="alert">
            {view.error}
          </p>
        )}
        {view.loading ? (
          <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>Loading...</p>
        ) : view.deliveries.length === 0 ? (
          <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>Nothing was sent yet.</p>
        ) : (
          <ul className={list} aria-label="Deliveries">
            {view.deliveries.map((delivery) => (
              <li key={delivery.id} className={row}>
                <div>
                  <div className={css({ fontWeight: 'medium' })}>
                    {EVENT_LABELS[delivery.event]}{' '}
                    <span
                      className={`${pill} ${delivery.status === 'delivered' ? okPill : delivery.status === 'failed' ? offPill : retryPill}`}
                    >
                      {delivery.status === 'delivered'
                        ? 'Delivered'
                        : delivery.status === 'failed'
                          ? 'Failed'
                          : 'Retrying'}
                    </span>
                  </div>
                  <div className={muted}>{formatExact(delivery.created_at)}</div>
                  <ol className={css({ mt: '1', pl: '4', textStyle: 'xs', color: 'fg.muted' })}>
                    {delivery.attempts.map((attempt) => (
                      <li key={attempt.attempt}>
                        Attempt {attempt.attempt}: {attempt.status_code ?? 'no answer'}
                        {attempt.error && attempt.status_code === null ? ` (${attempt.error})` : ''}
                        {attempt.latency_ms !== null ? ` in ${attempt.latency_ms} ms` : ''}
                      </li>
                    ))}
                  </ol>
                </div>
                <div>
                  <Button
                    size="sm"
                    variant="outline"
                    loading={view.busy}
                    onClick={() => actor.send({ type: 'replay', delivery })}
                  >
                    Send again
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </DialogFrame>
    </section>
  )
}
