import { useActorRef } from '@xstate/react'
import { Plus } from 'lucide-react'
import { css, cx } from 'styled-system/css'
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
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { callout } from '../../components/form-styles.ts'
import { ConfirmActionDialog, ShownOnceDialog } from '../../components/shown-once-dialog.tsx'
import { card, cardList, cardRow, dialogBox, pill, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { formatExact } from '../../lib/format.ts'
import { ListSection } from './list-section.tsx'

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

const row = cx(card, cardRow)
const url = css({
  fontFamily: 'mono',
  textStyle: 'xs',
  overflowWrap: 'anywhere',
  fontWeight: 'medium',
})
const muted = css({ color: 'fg.muted', textStyle: 'xs', mt: '1' })
const check = css({ display: 'flex', gap: '2', alignItems: 'flex-start', textStyle: 'sm' })
const box = css({ mt: '0.5', w: '4', h: '4', accentColor: 'colorPalette.default', flexShrink: 0 })
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
    <ListSection
      id="webhooks"
      title="Webhooks"
      intro={
        <>
          Quire tells your other systems when something happens: a signed POST to each endpoint
          (Standard Webhooks), retried for a day, or a message to a Slack or Teams channel.
        </>
      }
      action={
        <Button onClick={() => actor.send({ type: 'start' })} disabled={view.loading}>
          <Plus /> New endpoint
        </Button>
      }
      notice={view.error && !view.editing && !view.log ? view.error : null}
      failed={view.failed}
      error={view.error}
      onRetry={() => actor.send({ type: 'retry' })}
      list={
        view.loading && !view.log ? (
          <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>Loading...</p>
        ) : view.hooks.length === 0 ? (
          <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>No endpoint yet.</p>
        ) : (
          <ul className={cardList} aria-label="Endpoints">
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
        )
      }
    >
      <ShownOnceDialog
        editing={view.editing}
        title="New webhook endpoint"
        error={view.error}
        busy={view.busy}
        confirmLabel="Add endpoint"
        onSubmit={() => actor.send({ type: 'create' })}
        onCancel={() => actor.send({ type: 'cancel' })}
        secret={view.created?.secret ?? null}
        secretTitle="Copy the signing secret now"
        secretDescription="It is shown this once. Check each delivery's webhook-signature with it."
        secretTestId="webhook-secret"
        onDone={() => actor.send({ type: 'done' })}
      >
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
          <legend className={css({ textStyle: 'sm', fontWeight: 'medium', mb: '1' })}>Kind</legend>
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
      </ShownOnceDialog>

      <ConfirmActionDialog
        open={view.confirming}
        title="Remove this endpoint?"
        description={`${view.selected?.url ?? ''}: Quire stops sending to it, and its log goes.`}
        confirmLabel="Remove"
        busy={view.busy}
        onConfirm={() => actor.send({ type: 'confirm' })}
        onCancel={() => actor.send({ type: 'cancel' })}
      />

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
          <ul className={cardList} aria-label="Deliveries">
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
    </ListSection>
  )
}
