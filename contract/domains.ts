import * as z from 'zod/mini'

/** Email domains as organisations list them: the shape, and those never an organisation's. */

/** An email domain as an organisation lists it (example.com), lower-cased. */
export const domainSchema = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.regex(
      /^(?=.{3,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      'Enter a domain such as example.com',
    ),
  )

/** Providers where anyone can open an address: never an organisation's domain. */
export const PUBLIC_EMAIL_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'mail.com',
  'yandex.com',
  'zoho.com',
])
