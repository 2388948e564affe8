import * as z from 'zod/mini'

/** The browser-extension hand-off's calls; its constants and texts are in extension-texts.ts. */
export * from './extension-texts.ts'

export const extensionConfigSchema = z.object({ extension_ids: z.array(z.string()) })
export type ExtensionConfig = z.infer<typeof extensionConfigSchema>

export const extensionHandoffRequestSchema = z.object({
  redirect_uri: z.string().check(z.minLength(1), z.maxLength(200)),
  state: z.string().check(z.minLength(1), z.maxLength(500)),
})
export const extensionHandoffResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  state: z.string(),
})
export type ExtensionHandoffResponse = z.infer<typeof extensionHandoffResponseSchema>
