import type { PortalAnswer, PortalField } from '../../contract/portal.ts'

/** The portal panel's data, context and events (issue 42). */

export interface PageRead {
  url: string
  title: string
  fields: PortalField[]
}

export interface FillItem {
  key: string
  answerId: number
  value: string
  overwrite: boolean
}

/** What the reader did with one field: filled, or why not (`current`: what the field holds). */
export interface FillOutcome {
  key: string
  answerId: number
  ok: boolean
  reason?: string
  /** The field held something and the fill was not told to overwrite it: what it holds. */
  occupied?: boolean
  current?: string
  overwrote: boolean
}

export interface DraftInput extends PageRead {
  questionnaireId: number | null
}

export interface Overwrite {
  key: string
  question: string
  current: string
  next: string
}

export interface PortalPanelContext {
  /** Quire's address, for the link to the questionnaire (known once signed in). */
  server: string | null
  /** The page last read (its address and title). */
  page: { url: string; title: string } | null
  questionnaire: { id: number; name: string; url: string } | null
  fields: PortalField[]
  answers: Record<string, PortalAnswer>
  /** Each field's state on the page since the last read. */
  outcomes: Record<string, { ok: boolean; reason?: string; occupied?: boolean }>
  /** Answers whose version moved since the read before this one (edited or approved in Quire). */
  updated: string[]
  queue: FillItem[]
  overwrite: Overwrite | null
  notice: string | null
  error: string | null
  expired: boolean
}

export type PortalPanelEvents =
  | { type: 'read' }
  | { type: 'retry' }
  | { type: 'fill'; key: string }
  | { type: 'fill.high' }
  | { type: 'overwrite.confirm' }
  | { type: 'overwrite.cancel' }
  | { type: 'connect' }
  | { type: 'session.changed' }
  /** The tab moved to another page (a wizard's next step): its questions are read on request. */
  | { type: 'page.changed' }
