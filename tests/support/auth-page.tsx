import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { render, screen } from '@testing-library/react'
import type userEvent from '@testing-library/user-event'
import type { ReactElement } from 'react'
import { type AnyEventObject, fromPromise, type InspectionEvent } from 'xstate'
import type * as z from 'zod/mini'
import type { AccessClaims, ProfileResponse } from '../../contract/auth.ts'
import { type StoredSession, sessionMachine } from '../../machines/session/index.ts'
import { SessionContext } from '../../src/app/session.tsx'

/** Where the account screens lead; each stub shows a heading a test can wait for. */
const DESTINATIONS = {
  '/': 'Home screen',
  '/login': 'Login screen',
  '/forgot-password': 'Forgot password screen',
} as const

interface AuthPageOptions {
  /** The stub screens instead of DESTINATIONS, each with its heading. */
  destinations?: Record<string, string>
  /** The page route's search schema, as the app's router has it. */
  validateSearch?: z.ZodMiniObject
  /** What the session finds stored when it starts (nothing by default). */
  stored?: () => Promise<StoredSession>
}

/**
 * Renders one account page at `url` under a small memory router (the page's route plus stubs for
 * the screens it leads to) and a session (signed out unless `stored` says otherwise) whose
 * received events are recorded.
 */
export function renderAuthPage(
  path: string,
  url: string,
  Page: () => ReactElement,
  options: AuthPageOptions = {},
) {
  const rootRoute = createRootRoute({ component: Outlet })
  const pageRoute = createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: Page,
    ...(options.validateSearch && { validateSearch: options.validateSearch }),
  })
  const stubs = Object.entries(options.destinations ?? DESTINATIONS)
    .filter(([stubPath]) => stubPath !== path)
    .map(([stubPath, title]) =>
      createRoute({
        getParentRoute: () => rootRoute,
        path: stubPath,
        component: () => <h1>{title}</h1>,
      }),
    )
  const router = createRouter({
    routeTree: rootRoute.addChildren([pageRoute, ...stubs]),
    history: createMemoryHistory({ initialEntries: [url] }),
  })

  const sessionEvents: AnyEventObject[] = []
  const session = sessionMachine.provide({
    actors: {
      readSession: fromPromise<StoredSession>(options.stored ?? (async () => ({ kind: 'none' }))),
      refreshSession: fromPromise<AccessClaims>(() => Promise.reject(new Error('refused'))),
      loadProfile: fromPromise<ProfileResponse>(() => new Promise(() => {})),
      clearSession: fromPromise<void>(async () => {}),
    },
  })
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.event' && event.actorRef.sessionId === event.rootId) {
      if (!event.event.type.startsWith('xstate.')) sessionEvents.push(event.event)
    }
  }

  const view = render(
    <SessionContext.Provider logic={session} options={{ inspect }}>
      <RouterProvider router={router} />
    </SessionContext.Provider>,
  )
  return { ...view, router, sessionEvents, path: () => router.state.location.pathname }
}

/** A promise a test settles when it chooses, to look at a screen while a call runs. */
export function deferred<T = void>() {
  let resolve: (value: T) => void = () => {}
  let reject: (reason: unknown) => void = () => {}
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Types a new password and its confirmation into the new-password form, then presses `button`. */
export async function submitNewPassword(
  user: ReturnType<typeof userEvent.setup>,
  button: string,
  password: string,
  confirm = password,
) {
  await user.type(await screen.findByLabelText('New password'), password)
  await user.type(screen.getByLabelText('Confirm password'), confirm)
  await user.click(screen.getByRole('button', { name: button }))
}
