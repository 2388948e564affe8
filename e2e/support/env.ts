import { tmpdir } from 'node:os'
import path from 'node:path'

/** Ports and paths shared by the Playwright config, the web server and the journeys. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199)
export const SMTP_PORT = E2E_PORT + 1
export const MAILBOX_PORT = E2E_PORT + 2
/** A local web site whose pages journeys add to the repository by URL. */
export const SITE_PORT = E2E_PORT + 3
export const SITE_URL = `http://127.0.0.1:${SITE_PORT}`
export const BASE_URL = `http://localhost:${E2E_PORT}`
/** Under the system temp directory, so PostgreSQL's system user (as root) can reach it. */
export const DATA_DIR = path.join(tmpdir(), `quire-e2e-${E2E_PORT}`)
/** The payment webhook's secret in the journeys: they sign the provider's deliveries with it. */
export const PADDLE_TEST_SECRET = 'pdl_ntfset_e2e_secret_of_quire_journeys'
/** The loopback OpenID Connect provider playing Microsoft Entra and Google in the journeys. */
export const IDP_PORT = E2E_PORT + 4
export const IDP_URL = `http://127.0.0.1:${IDP_PORT}`
export const IDP_CLIENTS = {
  entra: { client_id: 'quire-e2e-entra', client_secret: 'e2e-entra-client-secret-of-quire' },
  google: { client_id: 'quire-e2e-google', client_secret: 'e2e-google-client-secret-of-quire' },
}
/** The HTTP control (POST /publish) of the journeys' DNS server, where domain proofs are read. */
export const DNS_CONTROL_PORT = E2E_PORT + 5
export const DNS_CONTROL_URL = `http://127.0.0.1:${DNS_CONTROL_PORT}`
