import { createMemoryHistory, createRouter, RouterProvider } from '@tanstack/react-router'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { type StoredSession, sessionMachine } from '../../machines/session/index.ts'
import { ToasterContext } from '../../src/app/toaster.tsx'
import { routeTree } from '../../src/router.tsx'

/** The route guard over a real session actor whose stored-token check we control. */
function setup(path: string, read: () => Promise<StoredSession>) {
  const session = createActor(
    sessionMachine.provide({
      actors: {
        readSession: fromPromise(read),
        refreshSession: fromPromise<AccessClaims>(() => Promise.reject(new Error('refused'))),
        logout: fromPromise<void>(async () => {}),
        clearSession: fromPromise<void>(async () => {}),
        authEvents: fromCallback(() => () => {}),
      },
    }),
  ).start()
  const router = createRouter({
    routeTree,
    context: { session },
    history: createMemoryHistory({ initialEntries: [path] }),
  })
  render(
    <ToasterContext.Provider>
      <RouterProvider router={router} />
    </ToasterContext.Provider>,
  )
  return { router, session }
}

describe('route guard', () => {
  it("shows 'Verifying authentication...' while the session is checked", async () => {
    setup('/repository', () => new Promise(() => {}))
    expect(await screen.findByText('Verifying authentication...')).toBeTruthy()
  })

  it('redirects an unauthenticated visitor to /login', async () => {
    const { router } = setup('/settings', async () => ({ kind: 'none' }))
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/login')
  })

  it('sends an expired session whose refresh fails to /login', async () => {
    const { router } = setup('/chat', async () => ({ kind: 'expired' }))
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/login')
  })

  it('keeps public routes open without a session', async () => {
    const { router } = setup('/forgot-password', () => new Promise(() => {}))
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/forgot-password')
  })
})
