import type {
  Webhook,
  WebhookDelivery,
  WebhookEvent,
  WebhookKind,
} from '../../contract/platform.ts'

/** Settings → Webhooks: the form, context and events. */

export interface WebhookForm {
  url: string
  events: WebhookEvent[]
  kind: WebhookKind
}

export interface WebhooksContext {
  hooks: Webhook[]
  form: WebhookForm
  /** The endpoint just registered, with its secret shown this once. */
  created: (Webhook & { secret: string }) | null
  /** The endpoint whose log is open, or whose removal waits for confirmation. */
  selected: Webhook | null
  deliveries: WebhookDelivery[]
  error: string | null
}

export type WebhooksEvents =
  | { type: 'start' }
  | { type: 'edit'; change: Partial<WebhookForm> }
  | { type: 'create' }
  | { type: 'cancel' }
  | { type: 'done' }
  | { type: 'remove'; hook: Webhook }
  | { type: 'confirm' }
  | { type: 'enable'; hook: Webhook }
  | { type: 'open'; hook: Webhook }
  | { type: 'replay'; delivery: WebhookDelivery }
  | { type: 'close' }
  | { type: 'retry' }
