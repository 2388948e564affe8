import {
  type AnyRouter,
  createMemoryHistory,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router'
import { render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { fromCallback, fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { type StoredSession, sessionMachine } from '../../machines/session/index.ts'
import { SessionContext } from '../../src/app/session.tsx'
import { ToasterContext } from '../../src/app/toaster.tsx'
import { routeTree } from '../../src/router.tsx'

/** The route guard over the app's session actor, whose stored-token check we control. */
function setup(path: string, read: () => Promise<StoredSession>) {
  const logic = sessionMachine.provide({
    actors: {
      readSession: fromPromise(read),
      refreshSession: fromPromise<AccessClaims>(() => Promise.reject(new Error('refused'))),
      logout: fromPromise<void>(async () => {}),
      clearSession: fromPromise<void>(async () => {}),
      authEvents: fromCallback(() => () => {}),
    },
  })
  const holder: { router?: AnyRouter } = {}
  function Routed() {
    const session = SessionContext.useActorRef()
    const [router] = useState(() =>
      createRouter({
        routeTree,
        context: { session },
        history: createMemoryHistory({ initialEntries: [path] }),
      }),
    )
    holder.router = router
    return <RouterProvider router={router} />
  }
  render(
    <SessionContext.Provider logic={logic}>
      <ToasterContext.Provider>
        <Routed />
      </ToasterContext.Provider>
    </SessionContext.Provider>,
  )
  return { pathname: () => holder.router?.state.location.pathname }
}

describe('route guard', () => {
  it("shows 'Verifying authentication...' while the session is checked", async () => {
    setup('/repository', () => new Promise(() => {}))
    expect(await screen.findByText('Verifying authentication...')).toBeTruthy()
  })

  it('redirects an unauthenticated visitor to /login', async () => {
    const app = setup('/settings', async () => ({ kind: 'none' }))
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy()
    expect(app.pathname()).toBe('/login')
  })

  it('sends an expired session whose refresh fails to /login', async () => {
    const app = setup('/chat', async () => ({ kind: 'expired' }))
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy()
    expect(app.pathname()).toBe('/login')
  })

  it('keeps public routes open without a session', async () => {
    const app = setup('/forgot-password', () => new Promise(() => {}))
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeTruthy()
    expect(app.pathname()).toBe('/forgot-password')
  })
})
