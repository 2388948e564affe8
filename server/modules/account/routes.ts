import { eq } from 'drizzle-orm'
import type { License, ProfileResponse } from '../../../contract/auth.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import {
  auditQuerySchema,
  domainQuerySchema,
  LOGO_MAX_BYTES,
  ORGANIZATION_TEXTS,
  organizationUpdateSchema,
  verifyDnsSchema,
} from '../../../contract/organization.ts'
import { paths } from '../../../contract/paths.ts'
import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { Database } from '../../db/index.ts'
import { licenses, organizations } from '../../db/schema.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { areaRouter, orgOf } from '../../http/route-kit.ts'
import { jsonBody, query } from '../../http/validate.ts'
import type { createDomainProofs } from './domains.ts'
import { defaultLimits } from './license.ts'
import type { createLogoService } from './logo.ts'
import type { OrganizationService } from './organization.ts'

/** GET admin/profile/ and GET admin/get_license/: always the caller's own organisation. */
export function accountRoutes(options: {
  auth: Authenticator
  permit: Permit
  database: Database
  organization: OrganizationService
  /** The organisation's domains proven by DNS. */
  proofs: ReturnType<typeof createDomainProofs>
  logo: ReturnType<typeof createLogoService>
}) {
  const { db } = options.database
  const { organization, proofs, logo, permit } = options
  const app = areaRouter({ auth: options.auth })

  app.get(paths.account.profile, permit('read'), async (c) => {
    const auth = c.get('auth')
    const [org] = await db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, auth.org.id))
    if (!org) throw notFound()
    const body: ProfileResponse = {
      user: {
        id: auth.user.id,
        email: auth.user.email,
        first_name: auth.user.firstName,
        last_name: auth.user.lastName,
        role: auth.role,
      },
      organization: org,
    }
    return c.json(body)
  })

  app.get(paths.account.license, permit('read'), async (c) => {
    const auth = c.get('auth')
    const [row] = await db.select().from(licenses).where(eq(licenses.orgId, auth.org.id))
    const tier = row ?? {
      ...defaultLimits(),
      isActive: true,
      expirationDate: null,
      createdAt: new Date(),
    }
    const body: License = {
      tier: {
        name: tier.tierName,
        max_users: tier.maxUsers,
        max_repository: tier.maxRepository,
        max_questionnaire: tier.maxQuestionnaire,
        max_answers: tier.maxAnswers,
        is_evaluation: tier.isEvaluation,
        multi_language: tier.multiLanguage,
      },
      is_active: tier.isActive,
      expiration_date: tier.expirationDate?.toISOString() ?? null,
      created_at: tier.createdAt.toISOString(),
    }
    return c.json(body)
  })

  app.get(paths.account.organization, permit('read'), async (c) =>
    c.json(await organization.get(orgOf(c))),
  )
  app.post(paths.account.updateOrganization, permit('organization.manage'), async (c) => {
    const body = await jsonBody(c, organizationUpdateSchema)
    return c.json(await organization.update(c.get('auth'), body, c.get('requestId')))
  })
  app.get(paths.account.domainDnsRecord, permit('organization.manage'), (c) =>
    c.json(proofs.record(orgOf(c), query(c, domainQuerySchema).domain)),
  )
  app.post(paths.account.domainVerifyDns, permit('organization.manage'), async (c) => {
    const { domain } = await jsonBody(c, verifyDnsSchema)
    await proofs.verify(c.get('auth'), domain, c.get('requestId'))
    return c.json(await organization.get(orgOf(c)))
  })
  app.get(paths.account.organizationLogo, permit('read'), async (c) => {
    const image = await logo.get(orgOf(c))
    return c.body(new Uint8Array(image.data), 200, {
      'content-type': image.mime,
      'cache-control': 'private, no-cache',
      'content-disposition': 'inline; filename="logo"',
    })
  })
  app.post(paths.account.organizationLogo, permit('organization.manage'), async (c) => {
    const declared = Number(c.req.header('content-length') ?? 0)
    if (declared > LOGO_MAX_BYTES)
      throw apiError(413, ORGANIZATION_TEXTS.logoTooLarge, { code: ERROR_CODES.tooLarge })
    const bytes = Buffer.from(await c.req.arrayBuffer())
    return c.json(await logo.put(c.get('auth'), bytes, c.get('requestId')))
  })
  app.delete(paths.account.organizationLogo, permit('organization.manage'), async (c) =>
    c.json(await logo.remove(c.get('auth'), c.get('requestId'))),
  )
  app.get(paths.account.auditLog, permit('organization.manage'), async (c) =>
    c.json(await organization.auditLog(orgOf(c), query(c, auditQuerySchema))),
  )
  app.get(paths.account.auditLogExport, permit('organization.manage'), async (c) => {
    query(c, auditQuerySchema)
    const csv = await organization.auditCsv(orgOf(c), c.req.query())
    return c.body(csv, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="audit-log.csv"',
    })
  })

  return app.app
}
