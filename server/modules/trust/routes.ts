import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { RateLimiter } from '../../auth/rate-limit.ts'
import { areaRouter } from '../../http/route-kit.ts'
import type { TrustAdmin } from './analytics.ts'
import type { TrustAsk } from './ask.ts'
import type { TrustRequests } from './requests.ts'
import { publicRoutes } from './routes/public.ts'
import { staffRoutes } from './routes/staff.ts'
import type { TrustService } from './service.ts'
import type { ViewCounter } from './views.ts'

export { trustPageRoutes } from './routes/page.ts'
export { READER_COOKIE } from './routes/reader.ts'

/**
 * The trust centre (issue 40) under /api/v1: the page as its staff keep it (routes/staff.ts) and
 * as anyone reads it (routes/public.ts). Its HTML page, outside the API, is routes/page.ts.
 */
export function trustRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: TrustService
  requests: TrustRequests
  ask: TrustAsk
  admin: TrustAdmin
  views: ViewCounter
  /** The organisation's logo (the account area's), for a published page. */
  logo: (orgId: number) => Promise<{ mime: string; data: Buffer; updated_at: Date }>
  limiter: RateLimiter
  trustProxy: boolean
  /** Whether the site is served over https (the reader cookie is then Secure). */
  secure: boolean
}) {
  const app = areaRouter({ auth: options.auth })
  staffRoutes(app, options)
  publicRoutes(app, options)
  return app.app
}
