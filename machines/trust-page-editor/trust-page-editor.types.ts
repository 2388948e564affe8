import type { TrustSettings } from '../../contract/trust.ts'

/** The trust page editor's form, context and events. */

/** The page as edited: everything an admin sets, the NDA's version and dates left out. */
export type TrustForm = Omit<TrustSettings, 'nda_version' | 'updated_at'>

export interface TrustPageEditorContext {
  saved: TrustSettings | null
  form: TrustForm
  error: string | null
}

export type TrustPageEditorEvents =
  | { type: 'edit'; change: Partial<TrustForm> }
  | { type: 'reset' }
  | { type: 'preview' }
  | { type: 'back' }
  | { type: 'save' }
  /** Publish or withdraw the page, with what the form holds. */
  | { type: 'publish'; published: boolean }
  | { type: 'retry' }
