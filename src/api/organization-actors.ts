import { fromPromise } from 'xstate'
import {
  type AuditEvent,
  auditEventListSchema,
  type Organization,
  type OrganizationUpdate,
  organizationSchema,
} from '../../contract/organization.ts'
import { paths } from '../../contract/paths.ts'
import type { AuditQuery } from '../../machines/audit-log/index.ts'
import { type ApiClient, api } from './client.ts'
import { downloadPath } from './download.ts'

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
