import { fromPromise } from 'xstate'
import * as z from 'zod/mini'
import { extensionConfigSchema, extensionHandoffResponseSchema } from '../../contract/extension.ts'
import { paths } from '../../contract/paths.ts'
import type { ExtensionSessionCheck, ExtensionTokens } from '../../machines/extension-auth/index.ts'
import { type ApiClient, api } from './client.ts'
import { readTokens } from './tokens.ts'

/** The real side effects of /extension/auth. */
export function extensionActors(client: ApiClient = api) {
  return {
    checkSession: fromPromise<ExtensionSessionCheck, void>(async () => {
      const config = await client.get(paths.extension.config, extensionConfigSchema)
      let signedIn = false
      if (readTokens().access) {
        signedIn = await client
          .get(paths.account.profile, z.looseObject({}))
          .then(() => true)
          .catch(() => false)
      }
      return { extensionIds: config.extension_ids, signedIn }
    }),
    handOff: fromPromise<ExtensionTokens, { redirectUri: string; state: string }>(({ input }) =>
      client.post(
        paths.extension.handoff,
        { redirect_uri: input.redirectUri, state: input.state },
        extensionHandoffResponseSchema,
      ),
    ),
  }
}
