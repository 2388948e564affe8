import * as z from 'zod/mini'

// The contract is written with zod/mini: the same zod, a fraction of the bytes in the browser.

/** The user object an access token may carry (spec section 3, 'Tokens'). */
export const tokenUserSchema = z.looseObject({
  id: z.optional(z.union([z.number(), z.string()])),
  email: z.nullish(z.string()),
  first_name: z.nullish(z.string()),
  last_name: z.nullish(z.string()),
  role: z.optional(z.string()),
})
export type TokenUser = z.infer<typeof tokenUserSchema>

/** Claims the client reads from the access token; the server verifies the signature. */
export const accessClaimsSchema = z.looseObject({
  exp: z.number(),
  user: z.optional(tokenUserSchema),
})
export type AccessClaims = z.infer<typeof accessClaimsSchema>

export const tokenRefreshRequestSchema = z.object({ refresh: z.string().check(z.minLength(1)) })
export const tokenRefreshResponseSchema = z.looseObject({
  access: z.string().check(z.minLength(1)),
  refresh: z.optional(z.string().check(z.minLength(1))),
})
export type TokenRefreshResponse = z.infer<typeof tokenRefreshResponseSchema>

export const profileSchema = z.looseObject({
  user: z.looseObject({
    first_name: z.nullish(z.string()),
    last_name: z.nullish(z.string()),
    email: z.nullish(z.string()),
  }),
  organization: z.unknown(),
})
export type Profile = z.infer<typeof profileSchema>

/** localStorage keys for the two tokens (spec section 3). */
export const ACCESS_TOKEN_KEY = 'access_token'
export const REFRESH_TOKEN_KEY = 'refresh_token'
