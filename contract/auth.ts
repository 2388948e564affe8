import { z } from 'zod'

/** The user object an access token may carry (spec section 3, 'Tokens'). */
export const tokenUserSchema = z
  .object({
    id: z.union([z.number(), z.string()]).optional(),
    email: z.string().nullish(),
    first_name: z.string().nullish(),
    last_name: z.string().nullish(),
    role: z.string().optional(),
  })
  .loose()
export type TokenUser = z.infer<typeof tokenUserSchema>

/** Claims the client reads from the access token; the server verifies the signature. */
export const accessClaimsSchema = z
  .object({
    exp: z.number(),
    user: tokenUserSchema.optional(),
  })
  .loose()
export type AccessClaims = z.infer<typeof accessClaimsSchema>

export const tokenRefreshRequestSchema = z.object({ refresh: z.string().min(1) })
export const tokenRefreshResponseSchema = z
  .object({ access: z.string().min(1), refresh: z.string().min(1).optional() })
  .loose()
export type TokenRefreshResponse = z.infer<typeof tokenRefreshResponseSchema>

export const profileSchema = z
  .object({
    user: z
      .object({
        first_name: z.string().nullish(),
        last_name: z.string().nullish(),
        email: z.string().nullish(),
      })
      .loose(),
    organization: z.unknown(),
  })
  .loose()
export type Profile = z.infer<typeof profileSchema>

/** localStorage keys for the two tokens (spec section 3). */
export const ACCESS_TOKEN_KEY = 'access_token'
export const REFRESH_TOKEN_KEY = 'refresh_token'
