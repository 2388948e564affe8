import { fromPromise } from 'xstate'
import { paths } from '../../contract/paths.ts'
import {
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  apiKeySchema,
} from '../../contract/platform.ts'
import { apiKeysMachine } from '../../machines/api-keys/index.ts'
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
