import * as z from 'zod/mini'
import { licenseSchema, profileResponseSchema } from '../auth.ts'
import {
  auditEventListSchema,
  auditQuerySchema,
  dnsRecordSchema,
  domainQuerySchema,
  organizationSchema,
  organizationUpdateSchema,
  verifyDnsSchema,
} from '../organization.ts'
import { paths } from '../paths.ts'
import { type OperationDocs, op } from './operation.ts'

const A = paths.account

/** What the logo calls answer: when the logo last changed (null: there is none). */
const logoStateSchema = z.object({ logo_updated_at: z.nullable(z.string()) })

/** The signed-in person, their organisation, its settings, its domains, logo and audit log. */
export const accountOperations: OperationDocs = {
  [op('GET', A.profile)]: {
    summary: 'The signed-in person and their organisation',
    access: 'read',
    response: profileResponseSchema,
  },
  [op('GET', A.license)]: {
    summary: 'The organisation’s license: its tier, limits and expiry',
    access: 'read',
    response: licenseSchema,
  },
  [op('GET', A.organization)]: {
    summary: 'The organisation’s settings',
    access: 'read',
    response: organizationSchema,
  },
  [op('POST', A.updateOrganization)]: {
    summary: 'Change the organisation’s settings: any of the fields, the others stay',
    access: 'organization.manage',
    body: organizationUpdateSchema,
    response: organizationSchema,
  },
  [op('GET', A.domainDnsRecord)]: {
    summary: 'The DNS TXT record that proves the organisation holds a domain',
    access: 'organization.manage',
    query: domainQuerySchema,
    response: dnsRecordSchema,
  },
  [op('POST', A.domainVerifyDns)]: {
    summary: 'Read a domain’s TXT record and, when it is there, mark the domain proved by DNS',
    access: 'organization.manage',
    body: verifyDnsSchema,
    response: organizationSchema,
  },
  [op('GET', A.organizationLogo)]: {
    summary: 'The organisation’s logo image',
    access: 'read',
    produces: 'file',
  },
  [op('POST', A.organizationLogo)]: {
    summary: 'Replace the organisation’s logo',
    description:
      'The body is the image itself (PNG, JPEG or WebP, at most 512 KB), not a form: its type is read from its bytes.',
    access: 'organization.manage',
    response: logoStateSchema,
  },
  [op('DELETE', A.organizationLogo)]: {
    summary: 'Remove the organisation’s logo',
    access: 'organization.manage',
    response: logoStateSchema,
  },
  [op('GET', A.auditLog)]: {
    summary: 'The organisation’s audit log, newest first, by action and by person',
    access: 'organization.manage',
    query: auditQuerySchema,
    response: auditEventListSchema,
  },
  [op('GET', A.auditLogExport)]: {
    summary: 'The audit log as a CSV file, with the same filters',
    access: 'organization.manage',
    query: auditQuerySchema,
    produces: 'file',
  },
}
