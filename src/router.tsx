import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  type RouteComponent,
  redirect,
} from '@tanstack/react-router'
import { waitFor } from 'xstate'
import * as z from 'zod/mini'
import { GenericErrorScreen, PageErrorFallback } from './app/errors.tsx'
import { parseSearchText, stringifySearchText } from './app/search-params.ts'
import type { SessionActorRef } from './app/session.tsx'
import { Toaster } from './app/toaster.tsx'
import { VerifyingAuthentication } from './app/verifying.tsx'
import LoginPage from './pages/auth/login-page.tsx'
import { PublicNotFound } from './pages/public/public-not-found.tsx'

/**
 * The route tree of spec section 2, code-based. Public routes first; everything else sits under
 * the guarded `_app` layout, whose pages load lazily and fall back to 'Page Error' when they fail.
 */

export interface RouterContext {
  session: SessionActorRef
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The page title shown in the top bar. */
    title?: string
  }
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}

const text = z.optional(z.string())
/** Link parameters: the router parses `uid=12` as a number; the pages read text. */
const linkParam = z.optional(z.coerce.string())

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <Toaster />
    </>
  ),
  errorComponent: ({ reset }) => <GenericErrorScreen onRetry={reset} />,
  notFoundComponent: PublicNotFound,
})

// ---------------------------------------------------------------------------------------------
// Public routes
// ---------------------------------------------------------------------------------------------

/** An account screen: its page loads lazily, except /login, which is the first screen. */
const accountRoute = <TPath extends string, TSearch extends z.ZodMiniObject>(
  path: TPath,
  search: TSearch,
  component: RouteComponent,
) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path,
    validateSearch: search,
    component,
    errorComponent: PageErrorFallback,
  })

const loginRoute = accountRoute('/login', z.object({ message: text }), () => <LoginPage />)
const registerRoute = accountRoute(
  '/register',
  z.object({}),
  lazyRouteComponent(() => import('./pages/auth/register-page.tsx')),
)
const forgotPasswordRoute = accountRoute(
  '/forgot-password',
  z.object({}),
  lazyRouteComponent(() => import('./pages/auth/forgot-password-page.tsx')),
)
const resetPasswordRoute = accountRoute(
  '/reset-password',
  z.object({ uid: linkParam, token: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/reset-password-page.tsx')),
)
const setPasswordRoute = accountRoute(
  '/set-password',
  z.object({ uid: linkParam, token: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/set-password-page.tsx')),
)
const forcePasswordChangeRoute = accountRoute(
  '/force-password-change',
  z.object({}),
  lazyRouteComponent(() => import('./pages/auth/force-password-change-page.tsx')),
)
const confirmEmailRoute = accountRoute(
  '/confirm_email',
  z.object({ uuid: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/confirm-email-page.tsx')),
)
const magicLinkRoute = accountRoute(
  '/magic-link',
  z.object({ uid: linkParam, token: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/magic-link-page.tsx')),
)
const ssoCallbackRoute = accountRoute(
  '/auth/callback',
  z.object({ code: linkParam, state: linkParam, error: linkParam, error_description: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/sso-callback-page.tsx')),
)
const googleCallbackRoute = accountRoute(
  '/auth/social/google/callback',
  z.object({ code: linkParam, state: linkParam, error: linkParam, iss: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/google-callback-page.tsx')),
)
const extensionAuthRoute = accountRoute(
  '/extension/auth',
  z.object({ redirect_uri: linkParam, state: linkParam, extension_id: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/extension-auth-page.tsx')),
)
/** Issue 29: a notification email's one-click unsubscribe, without signing in. */
const unsubscribeRoute = accountRoute(
  '/unsubscribe',
  z.object({ token: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/unsubscribe-page.tsx')),
)
/** Issue 30: the instance's terms and privacy policy, linked from sign-in and registration. */
const termsRoute = accountRoute(
  '/terms',
  z.object({}),
  lazyRouteComponent(() => import('./pages/legal/legal-page.tsx'), 'TermsPage'),
)
const privacyRoute = accountRoute(
  '/privacy',
  z.object({}),
  lazyRouteComponent(() => import('./pages/legal/legal-page.tsx'), 'PrivacyPage'),
)
/** Issue 40: an organisation's trust centre, for anyone (the server's HTML, then this). */
const trustCentreRoute = accountRoute(
  '/trust/$slug',
  z.object({ access: linkParam }),
  lazyRouteComponent(() => import('./pages/trust/trust-centre-page.tsx')),
)
const payoutsRoute = accountRoute(
  '/payouts',
  z.object({ data: linkParam }),
  lazyRouteComponent(() => import('./pages/auth/payouts-page.tsx')),
)

// ---------------------------------------------------------------------------------------------
// The authenticated area
// ---------------------------------------------------------------------------------------------

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: '_app',
  /** The guard: wait for the session check, then let in or send to /login. */
  beforeLoad: async ({ context, location }) => {
    const settled = await waitFor(context.session, (snapshot) => !snapshot.hasTag('loading'))
    if (!settled.matches('authenticated')) {
      throw redirect({ to: '/login', replace: true, state: { from: location.href } as never })
    }
  },
  pendingComponent: VerifyingAuthentication,
  pendingMs: 0,
  pendingMinMs: 0,
  // the layout (sidebar, menus, drawer) loads with the first private page, never on /login
  component: lazyRouteComponent(() => import('./app/layout/app-layout.tsx'), 'AppLayout'),
  errorComponent: PageErrorFallback,
})

const page = <TPath extends string>(
  path: TPath,
  title: string,
  load: () => Promise<{ default: React.ComponentType }>,
) =>
  createRoute({
    getParentRoute: () => appRoute,
    path,
    staticData: { title },
    component: lazyRouteComponent(load),
    errorComponent: PageErrorFallback,
  })

const homeRoute = page('/', 'Home', () => import('./pages/home/home-page.tsx'))
/** Issue 29: everything assigned to me, by due date. */
const myWorkRoute = page('/my-work', 'My work', () => import('./pages/my-work/my-work-page.tsx'))
const repositoryRoute = page(
  '/repository',
  'Repository',
  () => import('./pages/repository/repository-page.tsx'),
)
const chatRoute = page('/chat', 'Chat', () => import('./pages/chat/chat-page.tsx'))
const knowledgeBaseRoute = page(
  '/knowledge-base',
  'Knowledge Base',
  () => import('./pages/knowledge-base/knowledge-base-page.tsx'),
)
const questionnairesRoute = page(
  '/questionnaires',
  'Questionnaires',
  () => import('./pages/questionnaires/questionnaires-page.tsx'),
)
const settingsRoute = page(
  '/settings',
  'Settings',
  () => import('./pages/settings/settings-page.tsx'),
)
/** Issue 30: each section of Settings has its own address. */
const settingsSectionRoute = page(
  '/settings/$section',
  'Settings',
  () => import('./pages/settings/settings-page.tsx'),
)

/** The questionnaire id is numeric, and 0 when missing or not a number. */
export const questionnaireIdSchema = z.pipe(
  z.optional(z.union([z.string(), z.number()])),
  z.transform((value) => {
    const id = Number(value)
    return Number.isInteger(id) && id > 0 ? id : 0
  }),
)

const questionnaireRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/questionnaire/$id',
  staticData: { title: 'Questionnaire Automation' },
  /** `question`: the question to open (from My work and notifications). */
  validateSearch: z.object({
    question: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
  }),
  params: {
    parse: (raw: { id: string }) => ({ id: questionnaireIdSchema.parse(raw.id) }),
    stringify: (params: { id: number }) => ({ id: String(params.id) }),
  },
  component: lazyRouteComponent(() => import('./pages/questionnaire/questionnaire-page.tsx')),
  errorComponent: PageErrorFallback,
})
/** Issue 29: the customers an organisation keeps, and each one's questionnaires by year. */
const customersRoute = page(
  '/customers',
  'Customers',
  () => import('./pages/customers/customers-page.tsx'),
)
const customerRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers/$id',
  staticData: { title: 'Customer' },
  params: {
    parse: (raw: { id: string }) => ({ id: questionnaireIdSchema.parse(raw.id) }),
    stringify: (params: { id: number }) => ({ id: String(params.id) }),
  },
  component: lazyRouteComponent(() => import('./pages/customers/customer-page.tsx')),
  errorComponent: PageErrorFallback,
})
/** Issue 30: a file's page: what was read from it, its statuses and versions, what cites it. */
const fileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/repository/$id',
  staticData: { title: 'File' },
  /** `page`: the document's page a cited source opens at (issue 30); `quote`: its words (39). */
  validateSearch: z.object({
    page: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
    quote: z.catch(z.optional(z.string().check(z.maxLength(500))), undefined),
  }),
  params: {
    parse: (raw: { id: string }) => ({ id: questionnaireIdSchema.parse(raw.id) }),
    stringify: (params: { id: number }) => ({ id: String(params.id) }),
  },
  component: lazyRouteComponent(() => import('./pages/repository/file-page.tsx')),
  errorComponent: PageErrorFallback,
})
/** Issue 30: any other address, inside the app: the navigation stays and home is offered. */
const notFoundRoute = page('$', 'Page not found', () => import('./pages/public/not-found-page.tsx'))
const questionnaireNoIdRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/questionnaire',
  beforeLoad: () => {
    throw redirect({ to: '/questionnaire/$id', params: { id: 0 }, replace: true })
  },
})

export const routeTree = rootRoute.addChildren([
  loginRoute,
  registerRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  setPasswordRoute,
  forcePasswordChangeRoute,
  confirmEmailRoute,
  magicLinkRoute,
  ssoCallbackRoute,
  googleCallbackRoute,
  extensionAuthRoute,
  payoutsRoute,
  unsubscribeRoute,
  termsRoute,
  privacyRoute,
  trustCentreRoute,
  appRoute.addChildren([
    homeRoute,
    myWorkRoute,
    repositoryRoute,
    fileRoute,
    chatRoute,
    knowledgeBaseRoute,
    questionnairesRoute,
    questionnaireRoute,
    questionnaireNoIdRoute,
    customersRoute,
    customerRoute,
    settingsRoute,
    settingsSectionRoute,
    notFoundRoute,
  ]),
])

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    scrollRestoration: true,
    parseSearch: parseSearchText,
    stringifySearch: stringifySearchText,
  })
}
