import { readFile } from 'node:fs/promises'
import { Hono } from 'hono'
import {
  LEGAL_TITLES,
  type LegalDocument,
  type LegalKind,
  legalKindSchema,
} from '../../../contract/legal.ts'
import { paths } from '../../../contract/paths.ts'
import type { AppEnv } from '../../http/env.ts'
import { notFound } from '../../http/errors.ts'
import { defaultPrivacy, defaultTerms, type InstanceFacts } from './texts.ts'

/** What the operator gave for one page: a link elsewhere, a Markdown file, or neither. */
export interface LegalSource {
  url?: string
  file?: string
}

export interface LegalSettings {
  terms?: LegalSource
  privacy?: LegalSource
  /** OPERATOR_NAME and OPERATOR_EMAIL. */
  operator?: string
  contact?: string
}

/**
 * GET /api/v1/legal/{terms|privacy}/ (issue 30), public: the page as the operator gave it, or the
 * default. A file is read on each call, so the operator's edits show without a restart.
 */
export function legalRoutes(deps: {
  settings?: LegalSettings
  publicUrl: string
  /** The language model's base URL, when one is configured (the privacy policy names its host). */
  llmBaseUrl?: string
}) {
  const settings = deps.settings ?? {}
  const address = deps.publicUrl
  const facts: InstanceFacts = {
    operator: settings.operator ?? `the operator of ${new URL(address).host}`,
    contact: settings.contact ?? null,
    address,
    llmHost: deps.llmBaseUrl ? new URL(deps.llmBaseUrl).host : null,
  }
  const defaults: Record<LegalKind, () => string> = {
    terms: () => defaultTerms(facts),
    privacy: () => defaultPrivacy(facts),
  }
  const app = new Hono<AppEnv>()
  app.get(paths.legal(':kind' as LegalKind), async (c) => {
    const parsed = legalKindSchema.safeParse(c.req.param())
    if (!parsed.success) throw notFound()
    const { kind } = parsed.data
    const source = settings[kind] ?? {}
    const own = source.file ? await readFile(source.file, 'utf8') : null
    const body: LegalDocument = {
      kind,
      title: LEGAL_TITLES[kind],
      url: source.url ?? null,
      markdown: own ?? defaults[kind](),
      operator: settings.operator ?? facts.operator,
      custom: Boolean(source.url || own),
    }
    return c.json(body, 200, { 'Cache-Control': 'no-cache' })
  })
  return app
}
