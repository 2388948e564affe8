import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { type AnyEventObject, fromPromise, type InspectionEvent } from 'xstate'
import type { ProfileResponse } from '../../contract/auth.ts'
import { type StoredSession, sessionMachine } from '../../machines/session/index.ts'
import { SessionContext } from '../../src/app/session.tsx'

/** Where the account screens lead; each stub shows a heading a test can wait for. */
const DESTINATIONS = {
  '/': 'Home screen',
  '/login': 'Login screen',
  '/forgot-password': 'Forgot password screen',
} as const

/**
 * Renders one account page at `url` under a small memory router (the page's route plus stubs for
 * the screens it leads to) and a signed-out session whose received events are recorded.
 */
export function renderAuthPage(path: string, url: string, Page: () => ReactElement) {
  const rootRoute = createRootRoute({ component: Outlet })
  const pageRoute = createRoute({ getParentRoute: () => rootRoute, path, component: Page })
  const stubs = Object.entries(DESTINATIONS)
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
      readSession: fromPromise<StoredSession>(async () => ({ kind: 'none' })),
      loadProfile: fromPromise<ProfileResponse>(() => new Promise(() => {})),
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
