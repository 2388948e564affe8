import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { startIdp } from '../../tests/support/oidc-idp.ts'
import { startJourneyDns } from './dns.ts'
import {
  DATA_DIR,
  DNS_CONTROL_PORT,
  E2E_PORT,
  IDP_CLIENTS,
  IDP_PORT,
  MAILBOX_PORT,
  PADDLE_TEST_SECRET,
  SITE_PORT,
  SMTP_PORT,
} from './env.ts'
import { startMailCapture } from './mail-capture.ts'
import { startSite } from './site.ts'

/**
 * Playwright's web server: a fresh DATA_DIR for every run, a real SMTP capture for the emailed
 * links, a DNS server for domain proofs, the production build (rebuilt when stale) and the real
 * server on its embedded PostgreSQL.
 */
rmSync(DATA_DIR, { recursive: true, force: true })
mkdirSync(DATA_DIR, { recursive: true })
chmodSync(DATA_DIR, 0o755)
await startMailCapture(SMTP_PORT, MAILBOX_PORT)
await startSite(SITE_PORT)
// domain proofs read TXT records from a DNS server on loopback that the journeys publish to
process.env.DNS_RESOLVER = await startJourneyDns(DNS_CONTROL_PORT)
const base = `http://localhost:${E2E_PORT}`
const idp = await startIdp(
  [
    { ...IDP_CLIENTS.entra, redirect_uris: [`${base}/api/v1/admin/sso/callback/microsoft_oidc/`] },
    {
      ...IDP_CLIENTS.google,
      redirect_uris: [
        `${base}/auth/social/google/callback`,
        `${base}/api/v1/admin/sso/callback/google/`,
      ],
    },
  ],
  { port: IDP_PORT },
)
process.env.GOOGLE_CLIENT_ID = IDP_CLIENTS.google.client_id
process.env.GOOGLE_CLIENT_SECRET = IDP_CLIENTS.google.client_secret
process.env.GOOGLE_ISSUER = idp.issuer

process.env.DATA_DIR = DATA_DIR
process.env.PORT = String(E2E_PORT)
process.env.PUBLIC_URL = `http://localhost:${E2E_PORT}`
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'warn'
process.env.EMBEDDED_PG_FSYNC = 'false'
process.env.MAIL_TRANSPORT = 'smtp'
process.env.SMTP_URL = `smtp://127.0.0.1:${SMTP_PORT}`
// only the journeys' local site may be fetched although it is loopback (SS1-SS4)
process.env.URL_FETCH_ALLOW = `127.0.0.1:${SITE_PORT},${idp.hostPort}`
// the payments flag stays off (the default); deliveries the journeys sign are verified
process.env.PADDLE_WEBHOOK_SECRET = PADDLE_TEST_SECRET
await import('../../scripts/start.ts')
