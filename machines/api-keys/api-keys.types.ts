import type { ApiKey, ApiKeyCreated } from '../../contract/platform.ts'

/** Settings → API keys: the form, context and events. */

export interface ApiKeyForm {
  name: string
  /** read, or read and write. */
  access: 'read' | 'write'
  /** A day (YYYY-MM-DD) the key stops working, or '' for none. */
  expires: string
}

export interface ApiKeysContext {
  keys: ApiKey[]
  form: ApiKeyForm
  /** The key just made, shown this once. */
  created: ApiKeyCreated | null
  /** The key whose revocation waits for confirmation, or is under way. */
  revoking: ApiKey | null
  error: string | null
}

export type ApiKeysEvents =
  | { type: 'start' }
  | { type: 'edit'; change: Partial<ApiKeyForm> }
  | { type: 'create' }
  | { type: 'cancel' }
  | { type: 'done' }
  | { type: 'revoke'; key: ApiKey }
  | { type: 'confirm' }
  | { type: 'retry' }
