import { fromPromise } from 'xstate'
import { paths } from '../../contract/paths.ts'
import {
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  apiKeySchema,
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  webhookCreatedSchema,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookSchema,
} from '../../contract/platform.ts'
import { apiKeysMachine } from '../../machines/api-keys/index.ts'
import { webhooksMachine } from '../../machines/webhooks/index.ts'
import { type ApiClient, api } from './client.ts'

/** Settings → API keys (issue 41): the organisation's keys, made and revoked by its admins. */
export const createApiKeysLogic = (client: ApiClient = api) =>
  apiKeysMachine.provide({
    actors: {
      loadKeys: fromPromise<ApiKey[], void>(async ({ signal }) => {
        const list = await client.get(paths.platform.apiKeys, apiKeyListSchema, { signal })
        return list.results
      }),
      createKey: fromPromise<ApiKeyCreated, ApiKeyCreate>(({ input }) =>
        client.post(paths.platform.apiKeys, input, apiKeyCreatedSchema),
      ),
      revokeKey: fromPromise<ApiKey, { id: number }>(({ input }) =>
        client.post(paths.platform.apiKeyRevoke(input.id), {}, apiKeySchema),
      ),
    },
  })
export type ApiKeysLogic = ReturnType<typeof createApiKeysLogic>

/** Settings → Webhooks (issue 41): the organisation's endpoints and their logs. */
export const createWebhooksLogic = (client: ApiClient = api) =>
  webhooksMachine.provide({
    actors: {
      loadHooks: fromPromise<Webhook[], void>(async ({ signal }) => {
        const list = await client.get(paths.platform.webhooks, webhookListSchema, { signal })
        return list.results
      }),
      createHook: fromPromise<Webhook & { secret: string }, WebhookCreate>(({ input }) =>
        client.post(paths.platform.webhooks, input, webhookCreatedSchema),
      ),
      removeHook: fromPromise<void, { id: number }>(async ({ input }) => {
        await client.requestVoid(paths.platform.webhookDelete(input.id), {
          method: 'POST',
          body: {},
        })
      }),
      enableHook: fromPromise<Webhook, { id: number }>(({ input }) =>
        client.post(paths.platform.webhookEnable(input.id), {}, webhookSchema),
      ),
      loadDeliveries: fromPromise<WebhookDelivery[], { id: number }>(async ({ input, signal }) => {
        const list = await client.get(
          paths.platform.webhookDeliveries(input.id),
          webhookDeliveryListSchema,
          { signal },
        )
        return list.results
      }),
      replayDelivery: fromPromise<void, { id: number; delivery: number }>(async ({ input }) => {
        await client.requestVoid(paths.platform.webhookReplay(input.id, input.delivery), {
          method: 'POST',
          body: {},
        })
      }),
    },
  })
export type WebhooksLogic = ReturnType<typeof createWebhooksLogic>
