import { fromPromise } from 'xstate'
import * as z from 'zod/mini'
import {
  type AuditEvent,
  auditEventListSchema,
  type DnsRecord,
  dnsRecordSchema,
  type Organization,
  type OrganizationUpdate,
  organizationSchema,
} from '../../contract/organization.ts'
import { paths } from '../../contract/paths.ts'
import { type SsoSettings, type SsoSettingsUpdate, ssoSettingsSchema } from '../../contract/sso.ts'
import type { AuditQuery } from '../../machines/audit-log/index.ts'
import { type ApiClient, ApiError, api } from './client.ts'
import { downloadPath, fetchBlob } from './download.ts'

let logoUrl: string | null = null
/** The logo as an address the page can show; the previous one is released. */
async function readLogo(client: ApiClient): Promise<string | null> {
  // an organisation without a logo says so: its logo is then not asked for (issue 30)
  const organization = await client.get(paths.account.organization, organizationSchema)
  if (!organization.logo_updated_at) {
    if (logoUrl) URL.revokeObjectURL(logoUrl)
    logoUrl = null
    return null
  }
  const blob = await fetchBlob(paths.account.organizationLogo, client).catch((error) => {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  })
  if (logoUrl) URL.revokeObjectURL(logoUrl)
  logoUrl = blob ? URL.createObjectURL(blob) : null
  return logoUrl
}

/** The real side effects of the organisation's logo. */
export function logoActors(client: ApiClient = api) {
  return {
    loadLogo: fromPromise<string | null, void>(() => readLogo(client)),
    uploadLogo: fromPromise<void, { file: File }>(async ({ input }) => {
      await client.requestVoid(paths.account.organizationLogo, {
        method: 'POST',
        body: input.file,
        headers: { 'content-type': input.file.type || 'application/octet-stream' },
      })
    }),
    removeLogo: fromPromise<void, void>(async () => {
      await client.requestVoid(paths.account.organizationLogo, { method: 'DELETE' })
    }),
  }
}

/** The real side effects of Settings → Single sign-on. */
export function ssoActors(client: ApiClient = api) {
  return {
    loadSso: fromPromise<SsoSettings, void>(() =>
      client.get(paths.sso.settings, ssoSettingsSchema),
    ),
    saveSso: fromPromise<SsoSettings, SsoSettingsUpdate>(async ({ input }) => {
      const answer = await client.post(paths.sso.settingsUpdate, input, z.looseObject({}))
      // the answer is read from data.data, or from data if that is absent (spec section 7)
      const body = (answer as { data?: unknown }).data ?? answer
      return ssoSettingsSchema.parse(body)
    }),
    testSso: fromPromise<{ ok: boolean; message: string }, SsoSettingsUpdate>(({ input }) =>
      client.post(paths.sso.test, input, z.object({ ok: z.boolean(), message: z.string() })),
    ),
  }
}

/** The real side effects of Settings → Organisation and the audit log. */
export function organizationActors(client: ApiClient = api) {
  const auditSearch = (query: AuditQuery) => {
    const search = new URLSearchParams({
      page: String(query.page),
      page_size: String(query.page_size),
    })
    if (query.action) search.set('action', query.action)
    return search
  }
  return {
    loadOrganization: fromPromise<Organization, void>(() =>
      client.get(paths.account.organization, organizationSchema),
    ),
    saveOrganization: fromPromise<Organization, OrganizationUpdate>(({ input }) =>
      client.post(paths.account.updateOrganization, input, organizationSchema),
    ),
    loadDnsRecord: fromPromise<DnsRecord, { domain: string }>(({ input }) =>
      client.get(
        `${paths.account.domainDnsRecord}?${new URLSearchParams({ domain: input.domain })}`,
        dnsRecordSchema,
      ),
    ),
    verifyDns: fromPromise<Organization, { domain: string }>(({ input }) =>
      client.post(paths.account.domainVerifyDns, { domain: input.domain }, organizationSchema),
    ),
    copyText: fromPromise<void, { text: string }>(async ({ input }) => {
      if (!navigator.clipboard) throw new Error('no clipboard')
      await navigator.clipboard.writeText(input.text)
    }),
    loadAudit: fromPromise<{ count: number; results: AuditEvent[] }, AuditQuery>(({ input }) =>
      client.get(`${paths.account.auditLog}?${auditSearch(input)}`, auditEventListSchema),
    ),
    downloadAudit: fromPromise<void, AuditQuery>(({ input }) => {
      const search = auditSearch(input)
      search.delete('page')
      search.delete('page_size')
      return downloadPath(`${paths.account.auditLogExport}?${search}`, 'audit-log.csv', client)
    }),
  }
}
